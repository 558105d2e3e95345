// Command-line parsing. Boost.Program_options does the tokenising so that abbreviations, bundled
// switches, `--name=value` and multitoken vectors behave exactly as in upstream; numbers are
// parsed here rather than by lexical_cast, which would silently wrap `-b -1` to 2^64-1.
#include "app/options.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <charconv>
#include <limits>
#include <sstream>
#include <utility>

#include "app/output_path.h"
#include "core/escape.h"
#include "core/statistics.h"
#include "core/text.h"
#include "model/report.h"
#include "report/sweep.h"

namespace po = boost::program_options;

namespace nvbw {
namespace {

constexpr unsigned kHelpLineLength = 80;
constexpr unsigned kMaxConfirmRuns = 10;  // --confirm

// v0.8's long options. A prefix that named one of them in v0.8 still does, although a newer
// option now starts the same way (`--use` is --useMean, not --useHugePages; `--ver` --verbose).
// Also --compare and --from, which `--comp` and `--f` named before --compat and --format existed.
const char* const kV08LongNames[] = {"help",
                                     "bufferSize",
                                     "list",
                                     "testcase",
                                     "testcasePrefixes",
                                     "verbose",
                                     "skipVerification",
                                     "disableAffinity",
                                     "testSamples",
                                     "useMean",
                                     "json",
                                     "loopCount",
                                     "perfFormatter",
                                     "compare",
                                     "from"};

// `--<prefix>[=value]` spelled out as the v0.8 option it abbreviated, where it abbreviated
// exactly one; every other token unchanged (Boost then resolves or rejects it as before).
std::string expandV08Prefix(const std::string& token) {
  if (!startsWith(token, "--") || token.size() == 2) return token;
  const std::size_t equals = token.find('=');
  const std::string name = token.substr(2, equals == std::string::npos ? equals : equals - 2);
  const char* match = nullptr;
  for (const char* full : kV08LongNames) {
    if (name == full) return token;
    if (!startsWith(full, name)) continue;
    if (match) return token;  // ambiguous in v0.8 already: Boost says so
    match = full;
  }
  if (!match) return token;
  return "--" + std::string(match) + (equals == std::string::npos ? "" : token.substr(equals));
}

// The command line split at the first `--`: the options before it (v0.8's prefixes spelled out),
// and the arguments after it, which are never options nor an option's value (Boost would take
// `--` for the value of `--html --` or `--summarize -- DIR`).
struct SplitArguments {
  std::vector<std::string> options;
  std::vector<std::string> operands;
};

SplitArguments splitArguments(const std::vector<std::string>& args) {
  SplitArguments split;
  std::size_t i = 0;
  for (; i < args.size() && args[i] != "--"; ++i) {
    // Boost would read `---v` as `-v`: only `-x` and `--name` are options.
    if (startsWith(args[i], "---")) throw UsageError("unknown option " + quotedArgument(args[i]));
    split.options.push_back(expandV08Prefix(args[i]));
  }
  if (i < args.size()) split.operands.assign(args.begin() + i + 1, args.end());
  return split;
}

// One description serves parsing and --help, so the help can never list an option the parser
// does not know. Parsing stores the values in `into`, but for the numbers, which are taken as
// strings and converted by parseWholeNumber.
po::options_description describeOptions(Options& into) {
  const Options defaults;
  // Boost appends the colon: the caption prints as "nvbandwidth CLI:".
  // The option column stays as wide as v0.8's (33 characters: line length 80 minus 47), so that
  // v0.8's rows print byte for byte as before; longer new entries put their text on a line of
  // its own.
  po::options_description desc("nvbandwidth CLI", kHelpLineLength, kHelpLineLength - 33);
  // clang-format off
  desc.add_options()
    ("help,h", "Produce help message")
    ("bufferSize,b",
     po::value<std::string>()->default_value(std::to_string(defaults.bufferSizeMiB)),
     "Memcpy buffer size in MiB")
    ("list,l", "List available testcases")
    ("testcase,t", po::value(&into.testcases)->multitoken(),
     "Testcase(s) to run (by name or index)")
    ("testcasePrefixes,p", po::value(&into.testcasePrefixes)->multitoken(),
     "Testcase(s) to run (by prefix)")
    ("verbose,v", po::bool_switch(&into.verbose), "Verbose output")
    ("skipVerification,s", po::bool_switch(&into.skipVerification),
     "Skips data verification after copy")
    ("disableAffinity,d", po::bool_switch(&into.disableAffinity),
     "Disable automatic CPU affinity control")
    ("testSamples,i",
     po::value<std::string>()->default_value(std::to_string(defaults.testSamples)),
     "Iterations of the benchmark")
    ("useMean,m", po::bool_switch(&into.useMean), "Use mean instead of median for results")
    ("json,j", po::bool_switch(&into.json), "Print output in json format instead of plain text.")
    ("loopCount", po::value<std::string>()->default_value(std::to_string(defaults.loopCount)),
     "Iterations of memcpy to be performed within a test sample")
    ("perfFormatter", po::bool_switch(&into.perfFormatter),
     "Use perf formatter prefix (&&&& PERF) in output")
    ("version", "Print the version and exit")
    ("pair", po::value(&into.pair)->multitoken(),
     "Run the device-to-device testcases on one GPU pair only: two GPU indices or UUIDs")
    ("useHugePages,H", po::bool_switch(&into.useHugePages),
     "Allocate pinned host buffers from huge pages")
    ("targetNumPairs,P", po::value<std::string>()->default_value("-1"),
     "Device-to-device GPU pairs to sample (-1: all pairs); every GPU is covered first")
    ("format,F", po::value<std::string>(),
     "Output format: text (default), json (as -j) or perf (as --perfFormatter)")
    ("compat", po::value<std::string>(),
     "Upstream interface: v0.8 (default) or v0.10 (its indices, listing and text lines); "
     "also NVBANDWIDTH_COMPAT")
    ("compare", po::value(&into.compare)->multitoken(),
     "Compare saved -j reports (BASELINE... CURRENT; a baseline may be a directory) without a "
     "GPU; exit 3 if slower or unstable")
    ("baseline", po::value(&into.baseline)->multitoken(),
     "Compare this run with saved -j reports (files or directories: their median); exit 3 if "
     "any cell is slower or unstable")
    ("tolerance", po::value<std::string>()->default_value("5"),
     "Percent every cell may move before it is judged (the baseline's spread may widen it)")
    ("sweep", po::value(&into.sweep),
     "Run each testcase at buffer sizes MIN:MAX[:FACTOR] MiB (factor 2 by default)")
    ("no-progress", po::bool_switch(&into.noProgress),
     "No progress line on stderr (shown on terminals only)")
    ("html", po::value(&into.html), "Also write the report as a self-contained HTML file")
    ("from", po::value(&into.from),
     "With --html, --metrics, --output, --expect or --min-percent-of-peak: render or judge this "
     "saved -j report, run nothing")
    ("confirm", po::value<std::string>()->default_value("2"),
     "With --baseline: measure a testcase with a slower or unstable cell N more times (0 to 10) "
     "before judging it")
    ("expect", po::value(&into.expect),
     "Check the report against floors (GB/s) and ceilings (ns) in FILE; exit 3 if a cell is "
     "below")
    ("min-percent-of-peak", po::value<std::string>(),
     "Check that every bandwidth cell reaches P% of its link's peak; exit 3 if one is below")
    ("summarize", po::value(&into.summarize)->multitoken()->zero_tokens(),
     "Summarize many nodes' saved -j reports (files or directories) without a GPU; exit 3 if a "
     "node is flagged")
    ("metrics", po::value(&into.metrics),
     "Also write the report as Prometheus metrics (node_exporter's textfile collector)")
    ("output", po::value(&into.output),
     "Also write the report to FILE (.json: JSON, .html: HTML, else as printed); %h host, %r "
     "rank, %j job id, %% a %")
    ("schedule", po::value(&into.schedule),
     "Device-to-device GPU pairs: pairs (one pair at a time, the default), rounds (disjoint pairs "
     "at once where no two pairs share a link; elsewhere pairs) or force-rounds");
  // clang-format on
  return desc;
}

// "-b/--bufferSize", "--html": an option as -h shows it, by its long name.
std::string optionSpelling(const std::string& name) {
  for (const HelpEntry& e : helpEntries())
    if (!name.empty() && e.longName == name)
      return e.shortName.empty() ? "--" + name : "-" + e.shortName + "/--" + name;
  return "the argument " + quotedArgument(name);
}

// "invalid value 'TEXT' for --OPTION: WHY".
UsageError invalidValue(const std::string& text, const std::string& option,
                        const std::string& why) {
  return UsageError("invalid value " + quotedArgument(text) + " for --" + option + ": " + why);
}

// The values of a list option, none of which may be empty (`message` says so).
void refuseEmptyNames(const std::vector<std::string>& values, const char* message) {
  for (const std::string& value : values)
    if (value.empty()) throw UsageError(message);
}

// Accepts an optional '+' and decimal digits only: whitespace, signs, fractions and hex are
// rejected so that a typo never turns into a surprising size.
template <typename T>
T parseWholeNumber(const std::string& text, const std::string& option, const char* what) {
  if (!text.empty() && text[0] == '-')
    throw invalidValue(text, option,
                       allDigits(text.substr(1)) ? "must not be negative"
                                                 : std::string("expected ") + what);
  const std::string_view digits = std::string_view(text).substr(!text.empty() && text[0] == '+');
  if (!allDigits(digits)) throw invalidValue(text, option, std::string("expected ") + what);
  T value = 0;
  if (std::from_chars(digits.data(), digits.data() + digits.size(), value).ec != std::errc())
    throw invalidValue(text, option,
                       "too large (at most " + std::to_string(std::numeric_limits<T>::max()) + ")");
  return value;
}

// -1 (every pair) or a positive count.
long long parseTargetNumPairs(const std::string& text) {
  if (text == "-1") return -1;
  if (text.empty() || text[0] != '-')
    if (const long long value =
            parseWholeNumber<long long>(text, "targetNumPairs", "a whole number"))
      return value;
  throw invalidValue(text, "targetNumPairs", "expected -1 (all pairs) or a positive number");
}

bool looksLikeGpu(const std::string& token) {
  return allDigits(token) || (token.size() > 4 && startsWith(token, "GPU-"));
}

void validatePair(const Options& options) {
  if (options.pair.empty()) return;
  if (options.pair.size() != 2)
    throw UsageError("--pair takes two GPUs (indices or UUIDs), got " +
                     std::to_string(options.pair.size()));
  for (const std::string& token : options.pair)
    if (!looksLikeGpu(token))
      throw UsageError("--pair: " + quotedArgument(token) +
                       " is neither a GPU index nor a GPU UUID (GPU-...)");
  if (options.pair[0] == options.pair[1])
    throw UsageError("--pair names " + quotedArgument(options.pair[0]) + " twice");
  if (options.targetNumPairs >= 0)
    throw UsageError("--pair and -P/--targetNumPairs cannot be used together");
}

// A percentage: decimal digits with at most one fraction, nothing else.
double parsePercent(const std::string& text, const std::string& option) {
  const std::size_t dot = text.find('.');
  const bool digitsAround =
      !text.empty() && text != "." &&
      (dot == std::string::npos ? allDigits(text)
                                : (dot == 0 || allDigits(text.substr(0, dot))) &&
                                      (dot + 1 == text.size() || allDigits(text.substr(dot + 1))));
  if (!digitsAround || text.size() > 12)
    throw invalidValue(text, option, "expected a percentage such as 5 or 2.5");
  return std::stod(text);
}

// An empty value (`--baseline ""`, an unset shell variable) is a usage error, never taken for the
// option not given.
void refuseEmptyValue(const po::variables_map& vm, const char* name) {
  if (vm.count(name) && vm[name].as<std::string>().empty())
    throw UsageError(std::string("--") + name + " needs a value, not an empty one");
}

// The fleet options' values (--summarize's reports: its values, then the arguments after `--`,
// which may start with '-').
void readFleetOptions(const po::variables_map& vm, const std::vector<std::string>& operands,
                      Options& options) {
  refuseEmptyNames(options.compare, "--compare needs report files, not an empty name");
  refuseEmptyNames(options.baseline, "--baseline needs a value, not an empty one");
  options.tolerancePercent = parsePercent(vm["tolerance"].as<std::string>(), "tolerance");
  for (const char* name : {"sweep", "html", "from"}) refuseEmptyValue(vm, name);
  options.confirmRuns = parseWholeNumber<unsigned>(vm["confirm"].as<std::string>(), "confirm",
                                                   "a whole number of runs");
  refuseEmptyValue(vm, "expect");
  if (vm.count("min-percent-of-peak"))
    options.minPercentOfPeak =
        parsePercent(vm["min-percent-of-peak"].as<std::string>(), "min-percent-of-peak");
  if (vm.count("summarize")) {
    options.summarize.insert(options.summarize.end(), operands.begin(), operands.end());
    if (options.summarize.empty())
      throw UsageError("--summarize needs report files or folders (after it, or after --)");
  } else if (!operands.empty()) {
    throw UsageError("unexpected argument " + quotedArgument(operands.front()));
  }
  refuseEmptyNames(options.summarize, "--summarize needs report files, not an empty name");
  for (const char* name : {"metrics", "output"}) refuseEmptyValue(vm, name);
  if (!options.output.empty()) checkOutputPattern(options.output);
}

// What the commands that read saved reports are called on the command line ("" for a run).
std::string readingCommand(const Options& o) {
  if (!o.summarize.empty()) return "--summarize";
  if (!o.compare.empty()) return "--compare";
  if (!o.from.empty()) return "--from";
  return "";
}

// The options that shape what a run measures: a command that reads saved reports has nothing
// they could change, so they would be accepted and ignored.
const char* const kRunOptions[] = {
    "bufferSize",      "testSamples",    "useMean",   "skipVerification",
    "disableAffinity", "verbose",        "loopCount", "perfFormatter",
    "useHugePages",    "targetNumPairs", "pair",      "schedule"};

// No option is accepted and then ignored: each one given must be one the command uses.
void validateHonouredOptions(const Options& o) {
  const std::string command = readingCommand(o);
  if (!command.empty())
    for (const char* name : kRunOptions)
      if (o.isGiven(name))
        throw UsageError(optionSpelling(name) + " shapes what a run measures: " + command +
                         " reads saved reports, so it cannot be used with it");
  if ((command == "--compare" || command == "--from") &&
      (!o.testcases.empty() || !o.testcasePrefixes.empty()))
    throw UsageError(optionSpelling(o.testcases.empty() ? "testcasePrefixes" : "testcase") +
                     " selects what a run measures or a summary shows: " + command +
                     " takes every testcase of its reports, so it cannot be used with it");
  if (o.isGiven("tolerance") && command != "--compare" && o.baseline.empty())
    throw UsageError("--tolerance is how far a cell may move from the baseline: it needs "
                     "--baseline FILE or --compare BASELINE CURRENT");
  if (command == "--summarize" && o.judgesExpectations())
    throw UsageError(std::string(o.expect.empty() ? "--min-percent-of-peak" : "--expect") +
                     " judges one report: --summarize compares nodes with each other, so it "
                     "cannot be used with it (judge each report with --from)");
}

void validateFleetOptions(const Options& o) {
  if (o.compare.size() == 1)
    throw UsageError("--compare takes two reports or more (BASELINE... CURRENT), got 1");
  if (!o.compare.empty() && (!o.baseline.empty() || !o.sweep.empty() || !o.from.empty()))
    throw UsageError("--compare compares saved reports: it cannot be used with --baseline, "
                     "--sweep or --from");
  if (!o.from.empty() && (!o.baseline.empty() || !o.sweep.empty()))
    throw UsageError("--from renders a saved report: it cannot be used with --baseline or --sweep");
  if (!o.sweep.empty() && o.isGiven("bufferSize"))
    throw UsageError("--sweep sets the buffer sizes: it cannot be used with -b/--bufferSize");
  if (!o.sweep.empty()) parseSweep(o.sweep);  // throws UsageError naming what is wrong
  if (o.confirmRuns > kMaxConfirmRuns)
    throw invalidValue(std::to_string(o.confirmRuns), "confirm",
                       "at most " + std::to_string(kMaxConfirmRuns) + " runs");
  if (o.isGiven("confirm") && o.baseline.empty())
    throw UsageError("--confirm measures again the cells slower or unstable against --baseline: "
                     "it needs --baseline FILE");
  if (o.minPercentOfPeak && (*o.minPercentOfPeak <= 0.0 || *o.minPercentOfPeak > 100.0))
    throw UsageError("invalid value for --min-percent-of-peak: expected a percentage above 0 and "
                     "at most 100");
  if (!o.summarize.empty() &&
      (!o.compare.empty() || !o.baseline.empty() || !o.sweep.empty() || !o.from.empty()))
    throw UsageError("--summarize reads saved reports: it cannot be used with --compare, "
                     "--baseline, --sweep or --from");
  if (!o.summarize.empty() && !o.metrics.empty())
    throw UsageError("--metrics describes one run: it cannot be used with --summarize");
  validateHonouredOptions(o);
}

// --format text|json|perf (json is -j, perf is --perfFormatter; -F as v0.10 spells it) and --compat
// v0.8|v0.10 (NVBANDWIDTH_COMPAT when the option is not given). A set variable is checked even when
// the option overrides it: a typo there would otherwise surface only on the next run without the
// option.
void readInterfaceOptions(const po::variables_map& vm,
                          const std::optional<std::string>& compatVariable, Options& options) {
  if (vm.count("format")) {
    const std::string& format = vm["format"].as<std::string>();
    if (format != "text" && format != "json" && format != "perf")
      throw invalidValue(format, "format", "expected text, json or perf");
    if (format != "json" && options.json)
      throw UsageError("--format " + format + " and -j/--json cannot be used together");
    options.json = format == "json";
    // v0.10's documentation spells --perfFormatter as --format perf: text with &&&& PERF lines.
    if (format == "perf") options.perfFormatter = true;
  }
  if (compatVariable && !compatVariable->empty()) {
    const std::optional<CompatMode> mode = parseCompatMode(*compatVariable);
    if (!mode)
      throw UsageError("invalid value " + quotedArgument(*compatVariable) + " in " +
                       kCompatVariable + ": expected " + compatModeChoices());
    options.compat = *mode;
  }
  if (vm.count("compat")) {
    const std::string& text = vm["compat"].as<std::string>();
    const std::optional<CompatMode> mode = parseCompatMode(text);
    if (!mode) throw invalidValue(text, "compat", std::string("expected ") + compatModeChoices());
    options.compat = *mode;
  }
}

// Boost's own messages are already one line and name the option as the user spelled it; only
// the British "unrecognised" is reworded. The application adds the pointer to --help.
std::string describeBoostError(const po::error& error) {
  if (const auto* unknown = dynamic_cast<const po::unknown_option*>(&error))
    return "unknown option " + quotedArgument(unknown->get_option_name());
  return error.what();
}

}  // namespace

Options parseOptions(const std::vector<std::string>& args,
                     const std::optional<std::string>& compatVariable) {
  Options options;
  const po::options_description desc = describeOptions(options);
  po::variables_map vm;
  const SplitArguments split = splitArguments(args);
  try {
    const po::parsed_options parsed = po::command_line_parser(split.options).options(desc).run();
    // Boost keeps tokens no option took as positional entries without a key; upstream ignored
    // them, which hides typos such as `-t 0 -v 1`.
    for (const po::option& option : parsed.options) {
      if (option.string_key.empty()) {
        const std::string token =
            option.original_tokens.empty() ? std::string() : option.original_tokens.front();
        throw UsageError("unexpected argument " + quotedArgument(token));
      }
    }
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::error& error) {
    throw UsageError(describeBoostError(error));
  }

  for (const auto& [name, value] : vm)
    if (!value.defaulted()) options.given.insert(name);
  options.help = vm.count("help") > 0;
  options.list = vm.count("list") > 0;
  options.version = vm.count("version") > 0;
  options.bufferSizeMiB = parseWholeNumber<std::uint64_t>(vm["bufferSize"].as<std::string>(),
                                                          "bufferSize", "a whole number of MiB");
  options.testSamples = parseWholeNumber<unsigned>(vm["testSamples"].as<std::string>(),
                                                   "testSamples", "a whole number");
  options.loopCount = parseWholeNumber<std::uint64_t>(vm["loopCount"].as<std::string>(),
                                                      "loopCount", "a whole number");
  options.targetNumPairs = parseTargetNumPairs(vm["targetNumPairs"].as<std::string>());
  readFleetOptions(vm, split.operands, options);
  readInterfaceOptions(vm, compatVariable, options);
  refuseEmptyValue(vm, "schedule");
  if (!options.schedule.empty() && options.schedule != "pairs" && options.schedule != "rounds" &&
      options.schedule != "force-rounds")
    throw invalidValue(options.schedule, "schedule", "expected pairs, rounds or force-rounds");
  return options;
}

void validateInformationOptions(const Options& o) {
  const char* mode = o.list ? "-l/--list prints the testcases" : "--version prints the versions";
  // What they honour: the format of what they print (-j, --format) and the interface (--compat).
  static const char* const kHonoured[] = {"list",   "version", "json",
                                          "format", "compat",  "no-progress"};
  for (const std::string& name : o.given)
    if (std::find(std::begin(kHonoured), std::end(kHonoured), name) == std::end(kHonoured))
      throw UsageError(optionSpelling(name) + " has nothing to do where " + mode +
                       ", so it cannot be used with it");
}

void validateOptions(const Options& options) {
  if (!options.testcases.empty() && !options.testcasePrefixes.empty())
    throw UsageError("-t/--testcase and -p/--testcasePrefixes cannot be used together");
  if (options.bufferSizeMiB == 0) throw UsageError("--bufferSize must be at least 1");
  // bufferBytes() multiplies by 2^20; a larger -b would wrap to a small, wrong size.
  const std::uint64_t maxMiB = std::numeric_limits<std::uint64_t>::max() / kMiB;
  if (options.bufferSizeMiB > maxMiB)
    throw UsageError("--bufferSize " + std::to_string(options.bufferSizeMiB) +
                     " is too large: at most " + std::to_string(maxMiB) + " MiB");
  if (options.testSamples == 0) throw UsageError("--testSamples must be at least 1");
  if (options.loopCount == 0) throw UsageError("--loopCount must be at least 1");
  validatePair(options);
  validateFleetOptions(options);
}

std::string helpText() {
  Options unused;
  std::ostringstream out;
  out << describeOptions(unused);
  return out.str();
}

std::vector<HelpEntry> helpEntries() {
  std::vector<HelpEntry> entries;
  Options unused;
  const po::options_description desc = describeOptions(unused);
  for (const auto& option : desc.options()) {
    HelpEntry e;
    e.longName = option->long_name();
    const std::string shortest =
        option->canonical_display_name(po::command_line_style::allow_dash_for_short);
    if (shortest.size() == 2 && shortest[0] == '-') e.shortName = shortest.substr(1);
    const std::string parameter = option->format_parameter();  // "arg (=512)", "arg" or ""
    e.takesValue = !parameter.empty();
    const std::size_t open = parameter.find("(=");
    if (open != std::string::npos && parameter.back() == ')')
      e.defaultValue = parameter.substr(open + 2, parameter.size() - open - 3);
    e.description = option->description();
    entries.push_back(std::move(e));
  }
  return entries;
}

SettingsRecord settingsRecord(const Options& o) {
  SettingsRecord r;
  r.bufferSizeMiB = o.bufferSizeMiB;
  r.testSamples = o.testSamples;
  r.loopCount = o.loopCount;
  r.statistic = statisticName(o.useMean ? Statistic::Mean : Statistic::Median);
  r.verify = !o.skipVerification;
  r.cpuAffinity = !o.disableAffinity;
  r.useHugePages = o.useHugePages;
  r.targetNumPairs = o.targetNumPairs;
  if (!o.pair.empty()) r.pair = o.pair;
  if (!o.sweep.empty()) r.sweepMiB = sweepSizes(parseSweep(o.sweep));
  if (!o.schedule.empty()) r.schedule = o.schedule;
  // The interface the text was printed in, where it is not v0.8's (--from prints it again).
  if (o.compat == CompatMode::V0_10) r.interface = "v0.10";
  return r;
}

}  // namespace nvbw

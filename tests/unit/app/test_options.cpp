#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "app/options.h"

namespace nvbw {
namespace test_options {

Options parse(std::initializer_list<const char*> args) {
  return parseOptions(std::vector<std::string>(args.begin(), args.end()));
}

// Returns the UsageError message, failing the test when nothing (or something else) is thrown:
// a Boost exception escaping parseOptions would be caught by the catch-all and reported.
std::string usageError(std::initializer_list<const char*> args) {
  try {
    parse(args);
  } catch (const UsageError& error) {
    return error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "not a UsageError: " << error.what();
    return {};
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

std::string validationError(std::initializer_list<const char*> args) {
  const Options options = parse(args);
  try {
    validateOptions(options);
  } catch (const UsageError& error) {
    return error.what();
  }
  ADD_FAILURE() << "validateOptions accepted the options";
  return {};
}

bool isOneLine(const std::string& message) {
  return !message.empty() && message.find('\n') == std::string::npos;
}

using Strings = std::vector<std::string>;

// ---- defaults and every option by its long and short name ---------------------------------

// --schedule takes one of its three words; anything else, or nothing, is a usage error.
TEST(ParseOptions, ScheduleTakesItsThreeWordsAndNothingElse) {
  EXPECT_EQ(parse({}).schedule, "");
  for (const char* word : {"pairs", "rounds", "force-rounds"})
    EXPECT_EQ(parse({"--schedule", word}).schedule, word);
  EXPECT_EQ(usageError({"--schedule", "bogus"}),
            "invalid value 'bogus' for --schedule: expected pairs, rounds or force-rounds");
  EXPECT_TRUE(isOneLine(usageError({"--schedule", "Rounds"})));
  EXPECT_TRUE(isOneLine(usageError({"--schedule"})));
}

TEST(ParseOptions, DefaultsMatchUpstream) {
  const Options options = parse({});
  EXPECT_FALSE(options.help);
  EXPECT_FALSE(options.list);
  EXPECT_EQ(options.bufferSizeMiB, 512u);
  EXPECT_EQ(options.bufferSizeMiB, kDefaultBufferSizeMiB);
  EXPECT_TRUE(options.testcases.empty());
  EXPECT_TRUE(options.testcasePrefixes.empty());
  EXPECT_FALSE(options.verbose);
  EXPECT_FALSE(options.skipVerification);
  EXPECT_FALSE(options.disableAffinity);
  EXPECT_EQ(options.testSamples, 3u);
  EXPECT_FALSE(options.useMean);
  EXPECT_FALSE(options.json);
  EXPECT_EQ(options.loopCount, 16u);
  EXPECT_FALSE(options.perfFormatter);
  EXPECT_NO_THROW(validateOptions(options));
}

TEST(ParseOptions, FlagsByShortName) {
  EXPECT_TRUE(parse({"-h"}).help);
  EXPECT_TRUE(parse({"-l"}).list);
  EXPECT_TRUE(parse({"-v"}).verbose);
  EXPECT_TRUE(parse({"-s"}).skipVerification);
  EXPECT_TRUE(parse({"-d"}).disableAffinity);
  EXPECT_TRUE(parse({"-m"}).useMean);
  EXPECT_TRUE(parse({"-j"}).json);
}

TEST(ParseOptions, FlagsByLongName) {
  EXPECT_TRUE(parse({"--help"}).help);
  EXPECT_TRUE(parse({"--list"}).list);
  EXPECT_TRUE(parse({"--verbose"}).verbose);
  EXPECT_TRUE(parse({"--skipVerification"}).skipVerification);
  EXPECT_TRUE(parse({"--disableAffinity"}).disableAffinity);
  EXPECT_TRUE(parse({"--useMean"}).useMean);
  EXPECT_TRUE(parse({"--json"}).json);
  EXPECT_TRUE(parse({"--perfFormatter"}).perfFormatter);
}

TEST(ParseOptions, ValuesByShortAndLongName) {
  EXPECT_EQ(parse({"-b", "64"}).bufferSizeMiB, 64u);
  EXPECT_EQ(parse({"--bufferSize", "64"}).bufferSizeMiB, 64u);
  EXPECT_EQ(parse({"-i", "7"}).testSamples, 7u);
  EXPECT_EQ(parse({"--testSamples", "7"}).testSamples, 7u);
  EXPECT_EQ(parse({"--loopCount", "4"}).loopCount, 4u);
  EXPECT_EQ(parse({"-t", "host_to_device_memcpy_ce"}).testcases,
            Strings({"host_to_device_memcpy_ce"}));
  EXPECT_EQ(parse({"--testcase", "3"}).testcases, Strings({"3"}));
  EXPECT_EQ(parse({"-p", "host"}).testcasePrefixes, Strings({"host"}));
  EXPECT_EQ(parse({"--testcasePrefixes", "host"}).testcasePrefixes, Strings({"host"}));
}

TEST(ParseOptions, EverythingAtOnce) {
  const Options options = parse({"-b", "8", "-t", "0", "1", "-v", "-s", "-d", "-i", "5", "-m", "-j",
                                 "--loopCount", "2", "--perfFormatter"});
  EXPECT_EQ(options.bufferSizeMiB, 8u);
  EXPECT_EQ(options.testcases, Strings({"0", "1"}));
  EXPECT_TRUE(options.verbose);
  EXPECT_TRUE(options.skipVerification);
  EXPECT_TRUE(options.disableAffinity);
  EXPECT_EQ(options.testSamples, 5u);
  EXPECT_TRUE(options.useMean);
  EXPECT_TRUE(options.json);
  EXPECT_EQ(options.loopCount, 2u);
  EXPECT_TRUE(options.perfFormatter);
  EXPECT_NO_THROW(validateOptions(options));
}

// ---- value syntax -------------------------------------------------------------------------

TEST(ParseOptions, LongNameEqualsValue) {
  EXPECT_EQ(parse({"--bufferSize=64"}).bufferSizeMiB, 64u);
  EXPECT_EQ(parse({"--testSamples=9"}).testSamples, 9u);
  EXPECT_EQ(parse({"--loopCount=3"}).loopCount, 3u);
  EXPECT_EQ(parse({"--testcase=5"}).testcases, Strings({"5"}));
  EXPECT_EQ(parse({"--testcasePrefixes=device"}).testcasePrefixes, Strings({"device"}));
}

TEST(ParseOptions, ShortNameAttachedValue) {
  EXPECT_EQ(parse({"-b64"}).bufferSizeMiB, 64u);
  EXPECT_EQ(parse({"-i9"}).testSamples, 9u);
  EXPECT_EQ(parse({"-t3"}).testcases, Strings({"3"}));
}

TEST(ParseOptions, ShortNameWithEqualsTakesTheEqualsSignAsValue) {
  const std::string message = usageError({"-b=5"});
  EXPECT_NE(message.find("'=5'"), std::string::npos) << message;
  EXPECT_NE(message.find("--bufferSize"), std::string::npos) << message;
}

TEST(ParseOptions, PlusSignIsAccepted) { EXPECT_EQ(parse({"-b", "+5"}).bufferSizeMiB, 5u); }

TEST(ParseOptions, LargestValuesParse) {
  EXPECT_EQ(parse({"-i", "4294967295"}).testSamples, 4294967295u);
  EXPECT_EQ(parse({"--loopCount", "18446744073709551615"}).loopCount, 18446744073709551615ull);
  EXPECT_EQ(parse({"-b", "18446744073709551615"}).bufferSizeMiB, 18446744073709551615ull);
}

// ---- bundling and abbreviation ------------------------------------------------------------

TEST(ParseOptions, BundledSwitches) {
  const Options vs = parse({"-vs"});
  EXPECT_TRUE(vs.verbose);
  EXPECT_TRUE(vs.skipVerification);
  EXPECT_FALSE(vs.disableAffinity);

  const Options all = parse({"-vsdmj"});
  EXPECT_TRUE(all.verbose && all.skipVerification && all.disableAffinity && all.useMean &&
              all.json);
}

TEST(ParseOptions, BundledSwitchFollowedByValueOption) {
  const Options options = parse({"-vb64"});
  EXPECT_TRUE(options.verbose);
  EXPECT_EQ(options.bufferSizeMiB, 64u);
}

TEST(ParseOptions, UnambiguousLongPrefixes) {
  EXPECT_EQ(parse({"--buf", "64"}).bufferSizeMiB, 64u);
  EXPECT_EQ(parse({"--buf=32"}).bufferSizeMiB, 32u);
  EXPECT_EQ(parse({"--loop", "4"}).loopCount, 4u);
  EXPECT_TRUE(parse({"--perf"}).perfFormatter);
  EXPECT_TRUE(parse({"--verb"}).verbose);
  EXPECT_TRUE(parse({"--j"}).json);
  EXPECT_TRUE(parse({"--li"}).list);
  EXPECT_TRUE(parse({"--he"}).help);
  EXPECT_TRUE(parse({"--skip"}).skipVerification);
  EXPECT_TRUE(parse({"--dis"}).disableAffinity);
  EXPECT_TRUE(parse({"--use"}).useMean);
  EXPECT_EQ(parse({"--testS", "5"}).testSamples, 5u);
  EXPECT_EQ(parse({"--testcaseP", "host"}).testcasePrefixes, Strings({"host"}));
}

TEST(ParseOptions, ExactLongNameBeatsLongerOne) {
  const Options options = parse({"--testcase", "x"});
  EXPECT_EQ(options.testcases, Strings({"x"}));
  EXPECT_TRUE(options.testcasePrefixes.empty());
}

TEST(ParseOptions, AmbiguousPrefixIsAnError) {
  const std::string test = usageError({"--test", "3"});
  EXPECT_TRUE(isOneLine(test)) << test;
  EXPECT_NE(test.find("--test'"), std::string::npos) << test;
  EXPECT_NE(test.find("ambiguous"), std::string::npos) << test;
  EXPECT_NE(test.find("--testSamples"), std::string::npos) << test;
  EXPECT_NE(test.find("--testcasePrefixes"), std::string::npos) << test;

  const std::string l = usageError({"--l"});
  EXPECT_NE(l.find("--list"), std::string::npos) << l;
  EXPECT_NE(l.find("--loopCount"), std::string::npos) << l;
}

// ---- multitoken -t / -p -------------------------------------------------------------------

TEST(ParseOptions, MultitokenTestcases) {
  EXPECT_EQ(parse({"-t", "0", "1", "2"}).testcases, Strings({"0", "1", "2"}));
  EXPECT_EQ(parse({"-p", "host", "device"}).testcasePrefixes, Strings({"host", "device"}));
}

TEST(ParseOptions, RepeatedMultitokenOptionsAppend) {
  EXPECT_EQ(parse({"-t", "0", "-t", "1"}).testcases, Strings({"0", "1"}));
  EXPECT_EQ(parse({"-t", "3", "1", "--testcase", "3"}).testcases, Strings({"3", "1", "3"}));
  EXPECT_EQ(parse({"-p", "a", "-v", "-p", "b"}).testcasePrefixes, Strings({"a", "b"}));
}

TEST(ParseOptions, MultitokenStopsAtNextOption) {
  const Options options = parse({"-t", "0", "1", "-b", "8"});
  EXPECT_EQ(options.testcases, Strings({"0", "1"}));
  EXPECT_EQ(options.bufferSizeMiB, 8u);
}

TEST(ParseOptions, TestcaseTokensAreKeptVerbatim) {
  // A negative index or an empty token is selection's business, not a parse error.
  EXPECT_EQ(parse({"-t", "-1"}).testcases, Strings({"-1"}));
  EXPECT_EQ(parse({"-t", ""}).testcases, Strings({""}));
  EXPECT_EQ(parse({"-t", " 3"}).testcases, Strings({" 3"}));
}

TEST(ParseOptions, TerminatorAloneIsHarmless) {
  EXPECT_EQ(parse({"-t", "0", "--"}).testcases, Strings({"0"}));
}

// ---- syntax errors ------------------------------------------------------------------------

TEST(ParseOptions, ScalarOptionGivenTwiceIsAnError) {
  for (auto args : std::vector<std::vector<const char*>>{
           {"-b", "1", "-b", "2"},
           {"-b", "1", "--bufferSize=2"},
           {"-i", "1", "-i", "2"},
           {"--loopCount", "1", "--loopCount", "2"},
           {"-v", "-v"},
           {"-vv"},
           {"-s", "-s"},
           {"-d", "--disableAffinity"},
           {"-m", "-m"},
           {"-j", "-j"},
           {"--perfFormatter", "--perf"},
           {"-h", "-h"},
           {"-l", "-l"},
       }) {
    std::string message;
    try {
      parseOptions(Strings(args.begin(), args.end()));
      ADD_FAILURE() << "accepted " << args[0] << " twice";
    } catch (const UsageError& error) {
      message = error.what();
    }
    EXPECT_TRUE(isOneLine(message)) << message;
    EXPECT_NE(message.find("more than once"), std::string::npos) << message;
  }
}

TEST(ParseOptions, StrayPositionalArgumentsAreErrors) {
  EXPECT_EQ(usageError({"foo"}), "unexpected argument 'foo'");
  EXPECT_EQ(usageError({"-b", "64", "extra"}), "unexpected argument 'extra'");
  // Upstream silently dropped the "1" here; the user meant -t 0 1.
  EXPECT_EQ(usageError({"-t", "0", "-v", "1"}), "unexpected argument '1'");
}

TEST(ParseOptions, TokensAfterTerminatorAreErrors) {
  EXPECT_EQ(usageError({"--", "x"}), "unexpected argument 'x'");
  EXPECT_EQ(usageError({"-t", "0", "--", "1"}), "unexpected argument '1'");
  EXPECT_EQ(usageError({"--", "-v"}), "unexpected argument '-v'");
}

TEST(ParseOptions, UnknownOptions) {
  for (const char* option : {"-x", "--bogus", "--Help", "-help", "--verbosee"}) {
    const std::string message = usageError({option});
    EXPECT_TRUE(isOneLine(message)) << message;
    EXPECT_NE(message.find("unknown option"), std::string::npos) << message;
    EXPECT_EQ(message, std::string("unknown option '") + option + "'");
  }
}

TEST(ParseOptions, MissingValues) {
  for (auto args : std::vector<std::vector<const char*>>{
           {"-b"}, {"--bufferSize"}, {"-i"}, {"--loopCount"}, {"-t"}, {"-p"}, {"-b", "-v"}}) {
    std::string message;
    try {
      parseOptions(Strings(args.begin(), args.end()));
      ADD_FAILURE() << "accepted " << args[0] << " without a value";
    } catch (const UsageError& error) {
      message = error.what();
    }
    EXPECT_TRUE(isOneLine(message)) << message;
    EXPECT_NE(message.find("missing"), std::string::npos) << message;
  }
  EXPECT_NE(usageError({"-b"}).find("--bufferSize"), std::string::npos);
}

TEST(ParseOptions, SwitchWithValueIsAnError) {
  const std::string message = usageError({"--help=1"});
  EXPECT_TRUE(isOneLine(message)) << message;
  EXPECT_NE(message.find("--help"), std::string::npos) << message;
  usageError({"--verbose=true"});
}

// ---- bad numbers --------------------------------------------------------------------------

TEST(ParseOptions, NotAWholeNumber) {
  EXPECT_EQ(usageError({"-b", "abc"}),
            "invalid value 'abc' for --bufferSize: expected a whole number of MiB");
  EXPECT_EQ(usageError({"-i", "abc"}),
            "invalid value 'abc' for --testSamples: expected a whole number");
  EXPECT_EQ(usageError({"--loopCount", "abc"}),
            "invalid value 'abc' for --loopCount: expected a whole number");
  for (const char* value : {"1.5", "", " 5", "5 ", "0x10", "1e3", "+", "-", "5MiB", "--5"}) {
    EXPECT_EQ(usageError({"-b", value}), std::string("invalid value '") + value +
                                             "' for --bufferSize: expected a whole number of MiB");
  }
  // `--` ends the options: it is never an option's value.
  EXPECT_EQ(usageError({"-b", "--"}), "the required argument for option '--bufferSize' is missing");
}

TEST(ParseOptions, DoubleDashEndsTheOptionsAndWhatFollowsIsSummarized) {
  EXPECT_EQ(parse({"--summarize", "--", "-odd.json", "--", "b"}).summarize,
            (std::vector<std::string>{"-odd.json", "--", "b"}));
  EXPECT_EQ(parse({"--summarize", "a", "-j", "--", "-b"}).summarize,
            (std::vector<std::string>{"a", "-b"}));
  EXPECT_TRUE(parse({"--summarize", "a", "--", "-j"}).summarize.size() == 2);
  EXPECT_FALSE(parse({"--summarize", "a", "--", "-j"}).json);
  EXPECT_EQ(usageError({"--summarize", "--"}),
            "--summarize needs report files or folders (after it, or after --)");
  EXPECT_EQ(usageError({"--", "--summarize", "a"}), "unexpected argument '--summarize'");
  EXPECT_EQ(usageError({"-t", "0", "--", "1"}), "unexpected argument '1'");
  EXPECT_EQ(usageError({"--html", "--", "--from", "r.json"}),
            "the required argument for option '--html' is missing");
  EXPECT_TRUE(parse({"-t", "0", "--"}).testcases.size() == 1);
}

TEST(ValidateOptions, NoOptionIsAcceptedAndIgnored) {
  EXPECT_EQ(validationError({"--compare", "a", "b", "-i", "5"}),
            "-i/--testSamples shapes what a run measures: --compare reads saved reports, so it "
            "cannot be used with it");
  EXPECT_EQ(validationError({"--from", "a", "--html", "o", "-v"}),
            "-v/--verbose shapes what a run measures: --from reads saved reports, so it cannot "
            "be used with it");
  EXPECT_EQ(validationError({"--summarize", "a", "-b", "512"}),
            "-b/--bufferSize shapes what a run measures: --summarize reads saved reports, so it "
            "cannot be used with it");
  EXPECT_NE(validationError({"--compare", "a", "b", "-t", "0"}).find("-t/--testcase selects"),
            std::string::npos);
  EXPECT_NE(validationError({"--from", "a", "--html", "o", "-p", "host"}).find("-p/--"),
            std::string::npos);
  EXPECT_NE(validationError({"--tolerance", "10"}).find("--tolerance is how far"),
            std::string::npos);
  EXPECT_NE(validationError({"--summarize", "a", "--expect", "f"}).find("--expect judges one"),
            std::string::npos);
  EXPECT_NE(validationError({"--summarize", "a", "--min-percent-of-peak", "50"})
                .find("--min-percent-of-peak judges one"),
            std::string::npos);
  // What each command does use.
  for (std::initializer_list<const char*> args :
       {std::initializer_list<const char*>{"--compare", "a", "b", "--tolerance", "10", "-j"},
        {"--baseline", "a", "--tolerance", "10", "-i", "5", "-t", "0"},
        {"--summarize", "a", "-t", "0", "--html", "o", "--no-progress"},
        {"--from", "a", "--expect", "f", "-j", "--compat", "v0.10"},
        {"-b", "64", "-i", "2", "-m", "-s", "-d", "-v", "--loopCount", "4", "-H"}})
    EXPECT_NO_THROW(validateOptions(parse(args)));
}

TEST(ParseOptions, NegativeNumbersDoNotWrap) {
  EXPECT_EQ(usageError({"-b", "-1"}), "invalid value '-1' for --bufferSize: must not be negative");
  EXPECT_EQ(usageError({"-i", "-1"}), "invalid value '-1' for --testSamples: must not be negative");
  EXPECT_EQ(usageError({"--loopCount", "-1"}),
            "invalid value '-1' for --loopCount: must not be negative");
  EXPECT_EQ(usageError({"--bufferSize=-64"}),
            "invalid value '-64' for --bufferSize: must not be negative");
}

TEST(ParseOptions, OverflowIsAnError) {
  EXPECT_EQ(usageError({"-b", "18446744073709551616"}),
            "invalid value '18446744073709551616' for --bufferSize: too large (at most "
            "18446744073709551615)");
  EXPECT_EQ(usageError({"-b", "99999999999999999999"}),
            "invalid value '99999999999999999999' for --bufferSize: too large (at most "
            "18446744073709551615)");
  EXPECT_EQ(usageError({"-i", "4294967296"}),
            "invalid value '4294967296' for --testSamples: too large (at most 4294967295)");
  EXPECT_EQ(usageError({"--loopCount", "100000000000000000000"}),
            "invalid value '100000000000000000000' for --loopCount: too large (at most "
            "18446744073709551615)");
}

TEST(ParseOptions, EveryErrorIsOneLine) {
  for (auto args : std::vector<std::vector<const char*>>{
           {"-b", "abc"}, {"-x"}, {"--test", "1"}, {"foo"}, {"-v", "-v"}, {"-b"}, {"-i", "-1"}}) {
    try {
      parseOptions(Strings(args.begin(), args.end()));
      ADD_FAILURE() << "accepted " << args[0];
    } catch (const UsageError& error) {
      EXPECT_TRUE(isOneLine(error.what())) << error.what();
    }
  }
}

// ---- validation ---------------------------------------------------------------------------

TEST(ValidateOptions, ZeroValuesAreRejected) {
  EXPECT_EQ(validationError({"-b", "0"}), "--bufferSize must be at least 1");
  EXPECT_EQ(validationError({"-i", "0"}), "--testSamples must be at least 1");
  EXPECT_EQ(validationError({"--loopCount", "0"}), "--loopCount must be at least 1");
}

TEST(ValidateOptions, TestcaseAndPrefixesTogetherAreRejected) {
  EXPECT_EQ(validationError({"-t", "0", "-p", "host"}),
            "-t/--testcase and -p/--testcasePrefixes cannot be used together");
}

TEST(ValidateOptions, BufferSizeMustFitIn64BitBytes) {
  const Options largest = parse({"-b", "17592186044415"});
  EXPECT_NO_THROW(validateOptions(largest));
  EXPECT_EQ(largest.bufferBytes(), 17592186044415ull * 1048576ull);
  EXPECT_EQ(validationError({"-b", "17592186044416"}),
            "--bufferSize 17592186044416 is too large: at most 17592186044415 MiB");
  EXPECT_EQ(validationError({"-b", "18446744073709551615"}),
            "--bufferSize 18446744073709551615 is too large: at most 17592186044415 MiB");
}

TEST(ValidateOptions, SmallestValuesAreAccepted) {
  EXPECT_NO_THROW(validateOptions(parse({"-b", "1", "-i", "1", "--loopCount", "1"})));
}

TEST(ValidateOptions, HelpAndListParseNextToBadValues) {
  // main handles -h/-l before validateOptions, so these must parse.
  EXPECT_TRUE(parse({"-h", "-b", "0"}).help);
  EXPECT_TRUE(parse({"-l", "-i", "0"}).list);
  EXPECT_TRUE(parse({"-h", "-t", "0", "-p", "host"}).help);
  EXPECT_TRUE(parse({"-j", "-h"}).help);
}

// ---- help ---------------------------------------------------------------------------------

TEST(HelpText, ExactLayout) {
  // Upstream's Boost layout, with the doubled ")" of -p fixed and the hidden options shown.
  // The trailing spaces before wrapped lines come from Boost.
  const std::string expected =
      "nvbandwidth CLI:\n"
      "  -h [ --help ]                  Produce help message\n"
      "  -b [ --bufferSize ] arg (=512) Memcpy buffer size in MiB\n"
      "  -l [ --list ]                  List available testcases\n"
      "  -t [ --testcase ] arg          Testcase(s) to run (by name or index)\n"
      "  -p [ --testcasePrefixes ] arg  Testcase(s) to run (by prefix)\n"
      "  -v [ --verbose ]               Verbose output\n"
      "  -s [ --skipVerification ]      Skips data verification after copy\n"
      "  -d [ --disableAffinity ]       Disable automatic CPU affinity control\n"
      "  -i [ --testSamples ] arg (=3)  Iterations of the benchmark\n"
      "  -m [ --useMean ]               Use mean instead of median for results\n"
      "  -j [ --json ]                  Print output in json format instead of plain \n"
      "                                 text.\n"
      "  --loopCount arg (=16)          Iterations of memcpy to be performed within a \n"
      "                                 test sample\n"
      "  --perfFormatter                Use perf formatter prefix (&&&& PERF) in \n"
      "                                 output\n"
      // v0.9/v0.10 options: the column keeps v0.8's width, so the rows above print as before.
      "  --version                      Print the version and exit\n"
      "  --pair arg                     Run the device-to-device testcases on one GPU \n"
      "                                 pair only: two GPU indices or UUIDs\n"
      "  -H [ --useHugePages ]          Allocate pinned host buffers from huge pages\n"
      "  -P [ --targetNumPairs ] arg (=-1)\n"
      "                                 Device-to-device GPU pairs to sample (-1: all \n"
      "                                 pairs); every GPU is covered first\n"
      "  -F [ --format ] arg            Output format: text (default), json (as -j) or\n"
      "                                 perf (as --perfFormatter)\n"
      "  --compat arg                   Upstream interface: v0.8 (default) or v0.10 \n"
      "                                 (its indices, listing and text lines); also \n"
      "                                 NVBANDWIDTH_COMPAT\n"
      "  --compare arg                  Compare saved -j reports (BASELINE... CURRENT;\n"
      "                                 a baseline may be a directory) without a GPU; \n"
      "                                 exit 3 if slower or unstable\n"
      "  --baseline arg                 Compare this run with saved -j reports (files \n"
      "                                 or directories: their median); exit 3 if any \n"
      "                                 cell is slower or unstable\n"
      "  --tolerance arg (=5)           Percent every cell may move before it is \n"
      "                                 judged (the baseline's spread may widen it)\n"
      "  --sweep arg                    Run each testcase at buffer sizes \n"
      "                                 MIN:MAX[:FACTOR] MiB (factor 2 by default)\n"
      "  --no-progress                  No progress line on stderr (shown on terminals\n"
      "                                 only)\n"
      "  --html arg                     Also write the report as a self-contained HTML\n"
      "                                 file\n"
      "  --from arg                     With --html, --metrics, --output, --expect or \n"
      "                                 --min-percent-of-peak: render or judge this \n"
      "                                 saved -j report, run nothing\n"
      // Issue 19's verdict options.
      "  --confirm arg (=2)             With --baseline: measure a testcase with a \n"
      "                                 slower or unstable cell N more times (0 to 10)\n"
      "                                 before judging it\n"
      "  --expect arg                   Check the report against floors (GB/s) and \n"
      "                                 ceilings (ns) in FILE; exit 3 if a cell is \n"
      "                                 below\n"
      "  --min-percent-of-peak arg      Check that every bandwidth cell reaches P% of \n"
      "                                 its link's peak; exit 3 if one is below\n"
      "  --summarize arg                Summarize many nodes' saved -j reports (files \n"
      "                                 or directories) without a GPU; exit 3 if a \n"
      "                                 node is flagged\n"
      "  --metrics arg                  Also write the report as Prometheus metrics \n"
      "                                 (node_exporter's textfile collector)\n"
      "  --output arg                   Also write the report to FILE (.json: JSON, \n"
      "                                 .html: HTML, else as printed); %h host, %r \n"
      "                                 rank, %j job id, %% a %\n"
      "  --schedule arg                 Device-to-device GPU pairs: pairs (one pair at\n"
      "                                 a time, the default), rounds (disjoint pairs \n"
      "                                 at once where no two pairs share a link; \n"
      "                                 elsewhere pairs) or force-rounds\n";
  EXPECT_EQ(helpText(), expected);
}

TEST(HelpText, EndsWithNewlineAndHasNoDoubledParenthesis) {
  const std::string help = helpText();
  ASSERT_FALSE(help.empty());
  EXPECT_EQ(help.back(), '\n');
  EXPECT_EQ(help.find("))"), std::string::npos);
  EXPECT_EQ(help.rfind("nvbandwidth CLI:\n", 0), 0u);
}

TEST(HelpText, ListsEveryOptionTheParserAccepts) {
  const std::string help = helpText();
  for (const char* name : {"--help", "--bufferSize", "--list", "--testcase", "--testcasePrefixes",
                           "--verbose", "--skipVerification", "--disableAffinity", "--testSamples",
                           "--useMean", "--json", "--loopCount", "--perfFormatter"}) {
    EXPECT_NE(help.find(name), std::string::npos) << name;
  }
}

// ---- v0.9/v0.10 options ---------------------------------------------------------------------

TEST(NewOptions, DefaultsLeaveV08Behaviour) {
  const Options o = parse({});
  EXPECT_FALSE(o.version);
  EXPECT_TRUE(o.pair.empty());
  EXPECT_FALSE(o.useHugePages);
  EXPECT_EQ(o.targetNumPairs, -1);
}

TEST(NewOptions, V08PrefixesKeepTheirMeaning) {
  // Each of these abbreviated one v0.8 option and now also starts a new one.
  EXPECT_TRUE(parse({"--use"}).useMean);
  EXPECT_FALSE(parse({"--use"}).useHugePages);
  EXPECT_TRUE(parse({"--u"}).useMean);
  EXPECT_TRUE(parse({"--ver"}).verbose);
  EXPECT_FALSE(parse({"--ver"}).version);
  EXPECT_TRUE(parse({"--p"}).perfFormatter);
  EXPECT_EQ(parse({"--buf=8"}).bufferSizeMiB, 8u);
  // Prefixes only the new options have.
  EXPECT_TRUE(parse({"--vers"}).version);
  EXPECT_TRUE(parse({"--useH"}).useHugePages);
  EXPECT_EQ(parse({"--pa", "0", "1"}).pair, Strings({"0", "1"}));
  EXPECT_EQ(parse({"--target", "3"}).targetNumPairs, 3);
  // A v0.8-ambiguous prefix stays ambiguous, and `--` still ends the options.
  EXPECT_NE(usageError({"--test", "3"}).find("ambiguous"), std::string::npos);
  EXPECT_NE(usageError({"--", "--use"}).find("unexpected argument"), std::string::npos);
}

TEST(NewOptions, ParseVersionHugePagesAndPair) {
  EXPECT_TRUE(parse({"--version"}).version);
  EXPECT_TRUE(parse({"-H"}).useHugePages);
  EXPECT_TRUE(parse({"--useHugePages"}).useHugePages);
  EXPECT_EQ(parse({"--pair", "0", "1"}).pair, Strings({"0", "1"}));
  EXPECT_EQ(parse({"--pair", "GPU-1b2c", "3"}).pair, Strings({"GPU-1b2c", "3"}));
  EXPECT_TRUE(parse({"-h"}).help);  // -h and -H differ
  EXPECT_FALSE(parse({"-h"}).useHugePages);
}

TEST(NewOptions, TargetNumPairsTakesMinusOneOrAPositiveCount) {
  EXPECT_EQ(parse({"-P", "-1"}).targetNumPairs, -1);
  EXPECT_EQ(parse({"-P", "4"}).targetNumPairs, 4);
  EXPECT_EQ(parse({"--targetNumPairs=12"}).targetNumPairs, 12);
  for (const char* bad : {"0", "-2", "abc", "1.5", ""}) {
    const std::string error = usageError({"-P", bad});
    EXPECT_NE(error.find("--targetNumPairs"), std::string::npos) << bad << ": " << error;
    EXPECT_TRUE(isOneLine(error)) << error;
  }
  EXPECT_NE(usageError({"-P", "99999999999999999999"}).find("too large"), std::string::npos);
}

TEST(NewOptions, PairNeedsTwoDistinctGpuTokensAndNoSampling) {
  EXPECT_EQ(validationError({"--pair", "0"}), "--pair takes two GPUs (indices or UUIDs), got 1");
  EXPECT_EQ(validationError({"--pair", "0", "1", "2"}),
            "--pair takes two GPUs (indices or UUIDs), got 3");
  EXPECT_EQ(validationError({"--pair", "1", "1"}), "--pair names '1' twice");
  EXPECT_EQ(validationError({"--pair", "0", "gpu0"}),
            "--pair: 'gpu0' is neither a GPU index nor a GPU UUID (GPU-...)");
  EXPECT_EQ(validationError({"--pair", "0", "1", "-P", "2"}),
            "--pair and -P/--targetNumPairs cannot be used together");
  EXPECT_NE(usageError({"--pair"}).find("--pair"), std::string::npos);
}

}  // namespace test_options
}  // namespace nvbw

namespace nvbw {
namespace test_options {

// ---- Fleet options: --compare, --baseline, --tolerance, --sweep, --no-progress, --html, --from

TEST(FleetOptions, ParsedWithTheirDefaults) {
  const Options none = parseOptions({});
  EXPECT_TRUE(none.compare.empty());
  EXPECT_EQ(none.tolerancePercent, 5.0);
  EXPECT_FALSE(none.noProgress);
  EXPECT_FALSE(none.isGiven("bufferSize"));
  const Options o = parseOptions(
      {"--compare", "a.json", "b.json", "--tolerance", "2.5", "--html", "r.html", "--no-progress"});
  EXPECT_EQ(o.compare, (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_EQ(o.tolerancePercent, 2.5);
  EXPECT_EQ(o.html, "r.html");
  EXPECT_TRUE(o.noProgress);
  EXPECT_TRUE(parseOptions({"-b", "512"}).isGiven("bufferSize"));
  EXPECT_EQ(parseOptions({"--sweep", "1:1024:4"}).sweep, "1:1024:4");
  EXPECT_EQ(parseOptions({"--baseline", "base.json"}).baseline,
            (std::vector<std::string>{"base.json"}));
  EXPECT_EQ(parseOptions({"--baseline", "a.json", "reports/", "-t", "0"}).baseline,
            (std::vector<std::string>{"a.json", "reports/"}));
  EXPECT_EQ(parseOptions({"--compare", "a.json", "b.json", "c.json"}).compare.size(), 3u);
  EXPECT_THROW(validateOptions(parseOptions({"--compare", "a.json"})), UsageError);
  EXPECT_EQ(parseOptions({"--html", "x.html", "--from", "r.json"}).from, "r.json");
}

TEST(FleetOptions, BadTolerancesAreUsageErrors) {
  for (const char* bad : {"-1", "five", "", "1e3", "5%", "1.2.3", "."})
    EXPECT_THROW(parseOptions({"--tolerance", bad}), UsageError) << bad;
  EXPECT_EQ(parseOptions({"--tolerance", "0"}).tolerancePercent, 0.0);
  EXPECT_EQ(parseOptions({"--tolerance", ".5"}).tolerancePercent, 0.5);
}

TEST(FleetOptions, ConflictsAreUsageErrors) {
  const std::vector<std::vector<std::string>> bad = {
      {"--compare", "a.json"},
      {"--compare", "a", "b", "--baseline", "c"},
      {"--compare", "a", "b", "--sweep", "1:4"},
      {"--html", "x", "--from", "r", "--sweep", "1:4"},
      {"--sweep", "1:4", "-b", "64"},
      {"--sweep", "4:1"},
      {"--sweep", "1:4:1"},
  };
  for (const auto& args : bad) {
    const Options o = parseOptions(args);
    EXPECT_THROW(validateOptions(o), UsageError) << args[0] << " " << args[1];
  }
  EXPECT_NO_THROW(validateOptions(parseOptions({"--compare", "a", "b", "--html", "x"})));
  // Several baseline reports, then the current one.
  EXPECT_NO_THROW(validateOptions(parseOptions({"--compare", "a", "b", "c"})));
  EXPECT_NO_THROW(
      validateOptions(parseOptions({"--sweep", "1:4", "--baseline", "b", "--html", "x"})));
}

TEST(FleetOutputOptions, ParsedAsGiven) {
  const Options none = parseOptions({});
  EXPECT_TRUE(none.summarize.empty());
  EXPECT_TRUE(none.metrics.empty());
  EXPECT_TRUE(none.output.empty());
  const Options o = parseOptions({"--summarize", "a", "dir/", "--output", "r/%h-%r-%j-%%.json"});
  EXPECT_EQ(o.summarize, (std::vector<std::string>{"a", "dir/"}));
  EXPECT_EQ(o.output, "r/%h-%r-%j-%%.json");  // substituted when the files are opened
  EXPECT_EQ(parseOptions({"--metrics", "m.prom"}).metrics, "m.prom");
  EXPECT_NO_THROW(validateOptions(parseOptions({"--from", "r.json", "--metrics", "m.prom"})));
  EXPECT_NO_THROW(validateOptions(parseOptions({"--from", "r.json", "--output", "r.html"})));
  EXPECT_NO_THROW(validateOptions(parseOptions({"--summarize", "d", "--html", "s.html", "-j"})));
  EXPECT_NO_THROW(validateOptions(parseOptions({"--compare", "a", "b", "--metrics", "m"})));
}

TEST(FleetOutputOptions, MistakesAreUsageErrors) {
  EXPECT_NE(usageError({"--output", "r-%d.json"}).find("'%d' is not a substitution"),
            std::string::npos);
  EXPECT_NE(usageError({"--output", "r%"}).find("a lone % is not"), std::string::npos);
  EXPECT_EQ(usageError({"--output", ""}), "--output needs a value, not an empty one");
  EXPECT_EQ(usageError({"--metrics", ""}), "--metrics needs a value, not an empty one");
  EXPECT_NE(usageError({"--summarize", ""}).find("not an empty name"), std::string::npos);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--summarize", "d", "--compare", "a", "b"},
        std::vector<std::string>{"--summarize", "d", "--baseline", "b"},
        std::vector<std::string>{"--summarize", "d", "--from", "r", "--html", "x"},
        std::vector<std::string>{"--summarize", "d", "--sweep", "1:4"},
        std::vector<std::string>{"--summarize", "d", "--metrics", "m"}})
    EXPECT_THROW(validateOptions(parseOptions(args)), UsageError) << args[2];
}

// v0.8 abbreviations keep their meaning next to the new long options.
TEST(FleetOptions, AnEmptyValueIsAUsageErrorNotAnOptionLeftOut) {
  // An unset shell variable must not silently drop the comparison or the page a script asked for.
  EXPECT_EQ(usageError({"--baseline", ""}), "--baseline needs a value, not an empty one");
  EXPECT_EQ(usageError({"--html", ""}), "--html needs a value, not an empty one");
  EXPECT_EQ(usageError({"--sweep", ""}), "--sweep needs a value, not an empty one");
  EXPECT_EQ(usageError({"--from", "", "--html", "o.html"}),
            "--from needs a value, not an empty one");
  EXPECT_NE(usageError({"--compare", "", "b.json"}).find("not an empty name"), std::string::npos);
  EXPECT_NE(usageError({"--tolerance", ""}).find("expected a percentage"), std::string::npos);
}

TEST(ParseOptions, ThreeDashesAreNotAnOption) {
  EXPECT_EQ(usageError({"---v"}), "unknown option '---v'");
  EXPECT_EQ(usageError({"---j"}), "unknown option '---j'");
  EXPECT_EQ(usageError({"---b", "5"}), "unknown option '---b'");
  EXPECT_TRUE(parseOptions({"-v"}).verbose);
  EXPECT_TRUE(parseOptions({"--json"}).json);
}

TEST(FleetOptions, V08AbbreviationsStillMeanV08Options) {
  EXPECT_EQ(parseOptions({"--b", "64"}).bufferSizeMiB, 64u);
  EXPECT_TRUE(parseOptions({"--s"}).skipVerification);
  EXPECT_THROW(parseOptions({"--t", "0"}), UsageError);  // ambiguous in v0.8 already
}

// ---- Verdicts: --confirm, --expect, --min-percent-of-peak (issue 19) -----------------------

TEST(VerdictOptions, Defaults) {
  const Options o = parseOptions({});
  EXPECT_EQ(o.confirmRuns, 2u);
  EXPECT_FALSE(o.isGiven("confirm"));
  EXPECT_TRUE(o.expect.empty());
  EXPECT_FALSE(o.minPercentOfPeak.has_value());
  EXPECT_FALSE(o.judgesExpectations());
}

TEST(VerdictOptions, Values) {
  const Options o = parseOptions({"--baseline", "b.json", "--confirm", "0", "--expect", "h.txt",
                                  "--min-percent-of-peak", "72.5"});
  EXPECT_EQ(o.confirmRuns, 0u);
  EXPECT_TRUE(o.isGiven("confirm"));
  EXPECT_EQ(o.expect, "h.txt");
  EXPECT_EQ(*o.minPercentOfPeak, 72.5);
  EXPECT_TRUE(o.judgesExpectations());
  EXPECT_NO_THROW(validateOptions(o));
  EXPECT_NO_THROW(validateOptions(parseOptions({"--baseline", "b", "--confirm", "10"})));
}

TEST(VerdictOptions, BadValuesAreUsageErrors) {
  for (const char* bad : {"-1", "x", "2.5", ""})
    EXPECT_THROW(parseOptions({"--baseline", "b", "--confirm", bad}), UsageError) << bad;
  EXPECT_EQ(usageError({"--expect", ""}), "--expect needs a value, not an empty one");
  for (const char* bad : {"-5", "abc", "", "50%"})
    EXPECT_THROW(parseOptions({"--min-percent-of-peak", bad}), UsageError) << bad;
  const std::vector<std::vector<std::string>> invalid = {
      {"--baseline", "b", "--confirm", "11"},
      {"--confirm", "2"},  // without --baseline, even at its default
      {"--compare", "a", "b", "--confirm", "1"},
      {"--min-percent-of-peak", "0"},
      {"--min-percent-of-peak", "100.5"},
  };
  for (const auto& args : invalid)
    EXPECT_THROW(validateOptions(parseOptions(args)), UsageError) << args[0] << " " << args[1];
  try {
    validateOptions(parseOptions({"--baseline", "b", "--confirm", "11"}));
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "invalid value '11' for --confirm: at most 10 runs");
  }
}

// --from checks a saved report with the expectations alone.
TEST(VerdictOptions, FromTakesExpectationsInsteadOfHtml) {
  EXPECT_NO_THROW(validateOptions(parseOptions({"--from", "r.json", "--expect", "h.txt"})));
  EXPECT_NO_THROW(
      validateOptions(parseOptions({"--from", "r.json", "--min-percent-of-peak", "80"})));
  EXPECT_NO_THROW(validateOptions(parseOptions({"--compare", "a", "b", "--expect", "h.txt"})));
  // --from alone prints the saved run's text again.
  EXPECT_NO_THROW(validateOptions(parseOptions({"--from", "r.json"})));
}

// ---- --format and --compat (issue 18) -------------------------------------------------------

Options parseWithVariable(std::initializer_list<const char*> args, const char* variable) {
  return parseOptions(std::vector<std::string>(args.begin(), args.end()),
                      variable ? std::optional<std::string>(variable) : std::nullopt);
}

std::string usageErrorWithVariable(std::initializer_list<const char*> args, const char* variable) {
  try {
    parseWithVariable(args, variable);
  } catch (const UsageError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

TEST(InterfaceOptions, DefaultsAreTextAndV08) {
  const Options o = parse({});
  EXPECT_FALSE(o.json);
  EXPECT_EQ(o.compat, CompatMode::V0_8);
}

TEST(InterfaceOptions, FormatJsonIsJ) {
  EXPECT_TRUE(parse({"--format", "json"}).json);
  EXPECT_TRUE(parse({"--format=json"}).json);
  EXPECT_FALSE(parse({"--format", "text"}).json);
  EXPECT_TRUE(parse({"-j", "--format", "json"}).json);  // the same request twice
  EXPECT_TRUE(parse({"--format", "json", "-l"}).list);
  EXPECT_TRUE(parse({"--form", "json"}).json);  // a prefix no other option shares
}

// v0.10's documentation: `-F, --format text|json|perf`.
TEST(InterfaceOptions, DashFIsFormat) {
  EXPECT_TRUE(parse({"-F", "json"}).json);
  EXPECT_TRUE(parse({"-Fjson"}).json);
  EXPECT_FALSE(parse({"-F", "text"}).json);
  EXPECT_TRUE(parse({"-F", "perf"}).perfFormatter);
  EXPECT_EQ(usageError({"-F", "xml"}),
            "invalid value 'xml' for --format: expected text, json or perf");
  EXPECT_NE(usageError({"-F"}).find("format"), std::string::npos);
}

TEST(InterfaceOptions, FormatPerfIsPerfFormatter) {
  const Options perf = parse({"--format", "perf"});
  EXPECT_TRUE(perf.perfFormatter);
  EXPECT_FALSE(perf.json);
  EXPECT_TRUE(parse({"--format", "perf", "--perfFormatter"}).perfFormatter);
  EXPECT_FALSE(parse({"--format", "text"}).perfFormatter);
  EXPECT_FALSE(parse({"--format", "json"}).perfFormatter);
  EXPECT_EQ(usageError({"--format", "perf", "-j"}),
            "--format perf and -j/--json cannot be used together");
}

TEST(InterfaceOptions, FormatTextWithJIsAUsageError) {
  for (const auto& args : {std::initializer_list<const char*>{"--format", "text", "-j"},
                           std::initializer_list<const char*>{"-j", "--format=text"},
                           std::initializer_list<const char*>{"--json", "--format", "text"}}) {
    const std::string message = usageError(args);
    EXPECT_EQ(message, "--format text and -j/--json cannot be used together");
  }
}

TEST(InterfaceOptions, BadFormatNamesTheChoices) {
  EXPECT_EQ(usageError({"--format", "xml"}),
            "invalid value 'xml' for --format: expected text, json or perf");
  EXPECT_EQ(usageError({"--format", "JSON"}),
            "invalid value 'JSON' for --format: expected text, json or perf");
  EXPECT_EQ(usageError({"--format", ""}),
            "invalid value '' for --format: expected text, json or perf");
  EXPECT_NE(usageError({"--format"}).find("format"), std::string::npos);
  EXPECT_NE(usageError({"--format", "json", "--format", "json"}).find("format"), std::string::npos);
  EXPECT_TRUE(isOneLine(usageError({"--format", "a\nb"})));
}

TEST(InterfaceOptions, CompatChoosesTheInterface) {
  EXPECT_EQ(parse({"--compat", "v0.10"}).compat, CompatMode::V0_10);
  EXPECT_EQ(parse({"--compat=v0.10"}).compat, CompatMode::V0_10);
  EXPECT_EQ(parse({"--compat", "v0.8"}).compat, CompatMode::V0_8);
  EXPECT_EQ(parse({"--compat", "v0.10", "-l"}).compat, CompatMode::V0_10);
  EXPECT_EQ(parse({"--compat", "v0.10", "-h"}).compat, CompatMode::V0_10);
}

TEST(InterfaceOptions, BadCompatNamesTheChoices) {
  for (const char* bad : {"v0.9", "0.10", "V0.10", "v0.10.0", "", "v0.8 "})
    EXPECT_EQ(usageError({"--compat", bad}),
              "invalid value '" + std::string(bad) + "' for --compat: expected v0.8 or v0.10")
        << bad;
  EXPECT_NE(usageError({"--compat"}).find("compat"), std::string::npos);
}

TEST(InterfaceOptions, TheVariableChoosesWhenTheOptionIsAbsent) {
  EXPECT_EQ(parseWithVariable({}, "v0.10").compat, CompatMode::V0_10);
  EXPECT_EQ(parseWithVariable({}, "v0.8").compat, CompatMode::V0_8);
  EXPECT_EQ(parseWithVariable({"-l"}, "v0.10").compat, CompatMode::V0_10);
  // An empty variable is an unset one (`NVBANDWIDTH_COMPAT= nvbandwidth`).
  EXPECT_EQ(parseWithVariable({}, "").compat, CompatMode::V0_8);
  EXPECT_EQ(parseWithVariable({}, nullptr).compat, CompatMode::V0_8);
}

TEST(InterfaceOptions, TheOptionWinsOverTheVariable) {
  EXPECT_EQ(parseWithVariable({"--compat", "v0.8"}, "v0.10").compat, CompatMode::V0_8);
  EXPECT_EQ(parseWithVariable({"--compat", "v0.10"}, "v0.8").compat, CompatMode::V0_10);
}

TEST(InterfaceOptions, ABadVariableIsAUsageErrorEvenBesideTheOption) {
  EXPECT_EQ(usageErrorWithVariable({}, "v0.9"),
            "invalid value 'v0.9' in NVBANDWIDTH_COMPAT: expected v0.8 or v0.10");
  EXPECT_EQ(usageErrorWithVariable({"--compat", "v0.10"}, "0.10"),
            "invalid value '0.10' in NVBANDWIDTH_COMPAT: expected v0.8 or v0.10");
  EXPECT_TRUE(isOneLine(usageErrorWithVariable({}, "v0.10\n")));
}

// --compare and --from keep the prefixes they had before --compat and --format shared them.
TEST(InterfaceOptions, EarlierPrefixesKeepTheirOptions) {
  EXPECT_EQ(parse({"--comp", "a.json", "b.json"}).compare, Strings({"a.json", "b.json"}));
  EXPECT_EQ(parse({"--compa", "a.json", "b.json"}).compare, Strings({"a.json", "b.json"}));
  EXPECT_EQ(parse({"--compat", "v0.10"}).compat, CompatMode::V0_10);
  EXPECT_EQ(parse({"--f", "r.json", "--html", "o.html"}).from, "r.json");
  EXPECT_TRUE(parse({"--fo", "json"}).json);
}

}  // namespace test_options
}  // namespace nvbw

// parseJson (json.h): one pass of nlohmann's parser, its callback holding the limits.
#include <optional>
#include <string>
#include <vector>

#include "model/json.h"

namespace nvbw {

namespace {

// What a value costs a document in memory (libstdc++ on 64 bits, with the allocator's 16 bytes a
// block): 16 bytes in its container, whose vector may hold half as much again unused; an object
// is a map, each member a node with its key; a string an object on the heap, and a long string
// its characters' block too.
constexpr std::size_t kValueBytes = 16;
constexpr std::size_t kElementSlackBytes = 8;
constexpr std::size_t kObjectBytes = 64;
constexpr std::size_t kArrayBytes = 40;
constexpr std::size_t kMemberBytes = 96;
constexpr std::size_t kStringBytes = 48;
constexpr std::size_t kStopEvery = 1 << 16;  // events between two questions to `stop`

std::size_t heapBytes(std::size_t length) { return length < 16 ? 0 : length + 1 + 16; }

// The reason in one of nlohmann's messages, without the input it quotes: "[json.exception.
// parse_error.101] parse error at line 1, column 5: syntax error while parsing value - invalid
// literal; last read: '#'" is "invalid literal".
std::string reasonOf(std::string what) {
  if (const std::size_t p = what.find("] "); p != std::string::npos) what.erase(0, p + 2);
  if (what.rfind("parse error", 0) == 0)
    if (const std::size_t p = what.find(": "); p != std::string::npos) what.erase(0, p + 2);
  if (const std::size_t p = what.find(" - "); p != std::string::npos) what.erase(0, p + 3);
  if (const std::size_t p = what.find("; last read: '"); p != std::string::npos) {
    const std::size_t expected = what.rfind("'; expected ");
    what =
        what.substr(0, p) +
        (expected != std::string::npos && expected > p ? what.substr(expected + 1) : std::string());
  }
  if (what.rfind("number overflow", 0) == 0) what = "number overflow";  // it quotes the number
  return what;
}

[[noreturn]] void notJson(std::size_t byte, const char* what) {
  throw JsonInputError("not JSON at byte " + std::to_string(byte) + ": " + reasonOf(what));
}

// The parser's callback: the depth and memory limits, the stop request, and the members the
// caller drops (their values still read, so the text is checked to be JSON, but not kept).
class Limits {
 public:
  Limits(std::size_t maxDepth, std::size_t maxBytes, const StopRequest& stop,
         const MemberFilter& keep)
      : maxDepth_(maxDepth), maxBytes_(maxBytes), stop_(stop, kStopEvery), keep_(keep) {}

  // `depth`: the containers open around the event (0 for the document's own).
  bool operator()(int depth, Json::parse_event_t event, const Json& parsed) {
    stop_.tick();
    const auto d = static_cast<std::size_t>(depth);
    if (dropping_ && d < *dropping_) dropping_.reset();  // out of the dropped member's value
    switch (event) {
    case Json::parse_event_t::object_start:
    case Json::parse_event_t::array_start:
      return open(d, event == Json::parse_event_t::array_start);
    case Json::parse_event_t::key:
      if (dropping_ && d > *dropping_) return false;  // within the dropped value
      dropping_.reset();
      if (keep_ && !keep_(d, parsed.get_ref<const std::string&>())) {
        dropping_ = d;
        return false;
      }
      spend(kMemberBytes + heapBytes(parsed.get_ref<const std::string&>().size()));
      return true;
    case Json::parse_event_t::value:
      if (dropped(d)) return false;
      spend(kValueBytes + element(d) +
            (parsed.is_string()
                 ? kStringBytes + heapBytes(parsed.get_ref<const std::string&>().size())
                 : 0));
      return true;
    case Json::parse_event_t::object_end:
    case Json::parse_event_t::array_end:
      break;
    }
    return true;
  }

 private:
  bool open(std::size_t depth, bool array) {
    if (depth >= maxDepth_)
      throw JsonInputError("nested more than " + std::to_string(maxDepth_) + " levels deep");
    if (dropped(depth)) return false;
    spend((array ? kArrayBytes : kObjectBytes) + kValueBytes + element(depth));
    arrays_.resize(depth);
    arrays_.push_back(array);
    return true;
  }
  // A value at `depth` belongs to a dropped member (the member's own value is at its depth).
  bool dropped(std::size_t depth) const { return dropping_ && depth >= *dropping_; }
  std::size_t element(std::size_t depth) const {
    return depth > 0 && depth <= arrays_.size() && arrays_[depth - 1] ? kElementSlackBytes : 0;
  }
  void spend(std::size_t bytes) {
    bytes_ += bytes;
    if (bytes_ > maxBytes_)
      throw JsonInputError(
          "would take more than " + std::to_string(maxBytes_ >> 20) +
          " MiB of memory to hold (values packed far more densely than in a report)");
  }

  std::size_t maxDepth_;
  std::size_t maxBytes_;
  PeriodicStop stop_;
  const MemberFilter& keep_;
  std::size_t bytes_ = 0;
  std::vector<bool> arrays_;             // per open container around the event: an array
  std::optional<std::size_t> dropping_;  // the depth of the member being dropped
};

// Where a fault the parser reports without its position is (a number beyond a double's range):
// the text read again by nlohmann's event interface, which has it (its acceptor keeps nothing).
struct FaultLocator : nlohmann::detail::json_sax_acceptor<Json> {
  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) {
    notJson(byte, e.what());
  }
};

}  // namespace

Json parseJson(const std::string& text, std::size_t maxDepth, std::size_t maxBytes,
               const StopRequest& stop, const MemberFilter& keep) {
  Limits limits(maxDepth, maxBytes, stop, keep);
  try {
    return Json::parse(text, [&limits](int depth, Json::parse_event_t event, Json& parsed) {
      return limits(depth, event, parsed);
    });
  } catch (const Json::parse_error& e) {
    notJson(e.byte, e.what());
  } catch (const Json::exception& e) {
    FaultLocator locator;
    Json::sax_parse(text, &locator);
    throw JsonInputError(std::string("not JSON: ") + reasonOf(e.what()));
  }
}

const Json* findMember(const Json& object, const std::string& key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

}  // namespace nvbw

// parseJson (json.h): a counting pass over the text (nlohmann's SAX interface), then the document.
#include <string>
#include <utility>
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
constexpr std::size_t kStopEvery = 1 << 16;  // values between two questions to `stop`

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

// The counting pass: depth, memory as a document would take it, and the first syntax fault.
class Counter : public nlohmann::json_sax<Json> {
 public:
  Counter(std::size_t maxDepth, std::size_t maxBytes, const StopRequest& stop)
      : maxDepth_(maxDepth), maxBytes_(maxBytes), stop_(stop, kStopEvery) {}

  bool null() override { return scalar(0); }
  bool boolean(bool) override { return scalar(0); }
  bool number_integer(number_integer_t) override { return scalar(0); }
  bool number_unsigned(number_unsigned_t) override { return scalar(0); }
  bool number_float(number_float_t, const string_t&) override { return scalar(0); }
  bool string(string_t& s) override { return scalar(kStringBytes + heapBytes(s.size())); }
  bool binary(binary_t&) override { return scalar(0); }  // not in JSON text
  bool start_object(std::size_t) override { return open(false); }
  bool key(string_t& k) override {
    spend(kMemberBytes + heapBytes(k.size()));
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& e) override {
    throw JsonInputError("not JSON at byte " + std::to_string(position) + ": " +
                         reasonOf(e.what()));
  }

 private:
  bool scalar(std::size_t bytes) {
    stop_.tick();
    spend(bytes + kValueBytes + (inArray_.empty() || !inArray_.back() ? 0 : kElementSlackBytes));
    return true;
  }
  bool open(bool array) {
    spend(array ? kArrayBytes : kObjectBytes);
    if (inArray_.size() >= maxDepth_)
      throw JsonInputError("nested more than " + std::to_string(maxDepth_) + " levels deep");
    scalar(0);
    inArray_.push_back(array);
    return true;
  }
  bool close() {
    inArray_.pop_back();
    return true;
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
  std::size_t bytes_ = 0;
  std::vector<bool> inArray_;  // per open container
};

}  // namespace

Json parseJson(const std::string& text, std::size_t maxDepth, std::size_t maxBytes,
               const StopRequest& stop) {
  Counter counter(maxDepth, maxBytes, stop);
  Json::sax_parse(text, &counter);
  PeriodicStop building(stop, kStopEvery);
  return Json::parse(text, [&building](int, Json::parse_event_t, Json&) {
    building.tick();
    return true;
  });
}

const Json* findMember(const Json& object, const std::string& key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

void setMember(Json& object, const std::string& key, Json value) { object[key] = std::move(value); }

}  // namespace nvbw

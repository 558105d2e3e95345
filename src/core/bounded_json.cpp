#include "core/bounded_json.h"

#include <vector>

namespace nvbw {
namespace {

using nlohmann::json;

// nlohmann's message without its exception tag, its line/column prefix and the quoted input it
// read last: the reason alone ("syntax error while parsing value - invalid literal").
std::string reasonOf(const nlohmann::detail::exception& e) {
  std::string why = e.what();
  if (why.rfind("[json.exception.", 0) == 0) why.erase(0, why.find("] ") + 2);
  if (why.rfind("parse error at line ", 0) == 0) why.erase(0, why.find(": ") + 2);
  if (const std::size_t last = why.find("; last read"); last != std::string::npos) why.erase(last);
  return why;
}

// A SAX handler that builds the document with an explicit stack of the open containers and
// stops the parse (returns false) at the first container past the depth limit. nlohmann's own
// parser is iterative, so with this handler nothing recurses over the input.
class BoundedBuilder {
 public:
  BoundedBuilder(std::size_t maxDepth, std::size_t maxBytes, const StopRequest& stop)
      : maxDepth_(maxDepth), maxBytes_(maxBytes), stop_(stop, 1u << 16) {}

  bool null() { return put(json(nullptr)); }
  bool boolean(bool value) { return put(json(value)); }
  bool number_integer(json::number_integer_t value) { return put(json(value)); }
  bool number_unsigned(json::number_unsigned_t value) { return put(json(value)); }
  bool number_float(json::number_float_t value, const json::string_t&) { return put(json(value)); }
  bool string(json::string_t& value) {
    return spend(kStringBytes + heapBytes(value)) && put(json(std::move(value)));
  }
  bool binary(json::binary_t&) { return fail("binary values are not JSON"); }
  bool start_object(std::size_t) { return spend(kObjectBytes) && open(json::object()); }
  bool key(json::string_t& name) {
    if (!spend(kMemberBytes + heapBytes(name))) return false;
    slot_ = &(*open_.back())[name];
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return spend(kArrayBytes) && open(json::array()); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    return fail("not JSON at byte " + std::to_string(position) + ": " + reasonOf(e));
  }

  json take() { return std::move(root_); }
  std::size_t bytes() const { return bytes_; }
  const std::string& problem() const { return problem_; }

 private:
  // What the document costs in memory, counted as it grows (libstdc++ on 64 bits, with the
  // allocator's 16 bytes per block): a value is 16 bytes in its container, whose vector may hold
  // half as much again unused; an object member is a map node; a string value an object on the
  // heap, and a long string its characters' block too.
  static constexpr std::size_t kValueBytes = 16;
  static constexpr std::size_t kElementSlackBytes = 8;
  static constexpr std::size_t kObjectBytes = 64;
  static constexpr std::size_t kArrayBytes = 40;
  static constexpr std::size_t kMemberBytes = 96;
  // A string value holds a pointer to a std::string of its own (32 bytes and the block's 16),
  // short or not; a long one's characters are a further block.
  static constexpr std::size_t kStringBytes = 48;
  static std::size_t heapBytes(const json::string_t& text) {
    return text.size() < 16 ? 0 : text.size() + 1 + 16;
  }
  bool spend(std::size_t bytes) {
    bytes_ += bytes;
    if (bytes_ <= maxBytes_) return true;
    return fail("would take more than " + std::to_string(maxBytes_ >> 20) +
                " MiB of memory to hold (values packed far more densely than in a report)");
  }
  bool put(json&& value) {
    stop_.tick();
    const bool inArray = !open_.empty() && open_.back()->is_array();
    return spend(kValueBytes + (inArray ? kElementSlackBytes : 0)) && add(std::move(value));
  }

  // Places a value in the container that is open (or as the document) and returns it.
  json* add(json&& value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    *slot_ = std::move(value);
    return slot_;
  }
  // Only the innermost open container is ever modified, so the pointers to the enclosing ones
  // stay valid while elements are appended.
  bool open(json&& container) {
    if (open_.size() >= maxDepth_)
      return fail("nested more than " + std::to_string(maxDepth_) + " levels deep");
    json* placed = nullptr;
    if (!spend(kValueBytes) || !(placed = add(std::move(container)))) return false;
    open_.push_back(placed);
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }
  bool fail(std::string why) {
    if (problem_.empty()) problem_ = std::move(why);
    return false;
  }

  std::size_t maxDepth_;
  std::size_t maxBytes_;
  PeriodicStop stop_;
  std::size_t bytes_ = 0;
  json root_;
  std::vector<json*> open_;
  json* slot_ = nullptr;
  std::string problem_;
};

}  // namespace

nlohmann::json parseBoundedJson(const std::string& text, std::size_t maxDepth, std::size_t maxBytes,
                                const StopRequest& stop) {
  BoundedBuilder builder(maxDepth, maxBytes, stop);
  const bool complete = json::sax_parse(text, &builder);
  if (!complete) throw JsonInputError(builder.problem().empty() ? "not JSON" : builder.problem());
  return builder.take();
}

}  // namespace nvbw

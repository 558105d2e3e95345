// The project's one JSON library, nlohmann/json, and how a text from outside becomes a document:
// every layer that holds JSON holds a Json, and reads a text only through parseJson.
//
// parseJson accepts what nlohmann/json accepts (RFC 8259; a leading UTF-8 byte order mark
// skipped; strings in UTF-8 without raw control characters or lone surrogates; a repeated key
// keeps its last value), nested at most `maxDepth` levels (the document itself is level 1) and
// taking at most about `maxBytes` of memory as a document: the parser's callback counts both as
// the document is built, and gives up at the first value past a limit.
// Every fault throws JsonInputError, one line that says where without quoting the input:
// "not JSON at byte N: why" (N the 1-based position of the byte at fault, one past the end where
// the text ends early), "nested more than N levels deep", "would take more than N MiB of memory
// to hold (...)".
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "core/stop_request.h"

namespace nvbw {

// Objects keep their members in byte order of their keys (std::map), as the writer prints them.
using Json = nlohmann::json;

// Why a text is not a usable JSON document: not JSON, nested too deeply, packed too densely.
class JsonInputError : public Error {
 public:
  using Error::Error;
};

// The depth of the messages the processes of a run exchange (objects of lists of objects).
inline constexpr std::size_t kMessageDepth = 8;

// Which members of the document's objects to keep: `keep(depth, key)`, `depth` the containers
// around the key (1 for a member of the document's own object). A member it drops is still read
// (the text is checked to be JSON, and within the depth) but neither held nor counted.
using MemberFilter = std::function<bool(std::size_t depth, const std::string& key)>;

// Throws JsonInputError, or Interrupted when `stop` reports a signal (asked every few thousand
// values, so that a large text is given up within a fraction of a second).
Json parseJson(const std::string& text, std::size_t maxDepth,
               std::size_t maxBytes = std::numeric_limits<std::size_t>::max(),
               const StopRequest& stop = {}, const MemberFilter& keep = {});

// The member `key` of an object, or nullptr (also when `object` is no object).
const Json* findMember(const Json& object, const std::string& key);

}  // namespace nvbw

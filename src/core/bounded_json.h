// JSON text from outside (saved reports) parsed into a document without ever going deeper than a
// fixed nesting depth: nothing that later walks the document (copies, dumps, views) can recurse
// further than that, whatever the input holds.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "core/stop_request.h"

namespace nvbw {

// Why a text is not a usable JSON document: not JSON, or nested too deeply. The message is one
// line and says where (byte offset) without quoting the input.
class JsonInputError : public Error {
 public:
  using Error::Error;
};

// Parses `text` (RFC 8259 JSON, UTF-8) iteratively into a document; arrays and objects may nest
// at most `maxDepth` levels (the document itself is level 1), and the document may take at most
// about `maxBytes` of memory (counted as it is built, so the parse stops before it gets there).
// Duplicate keys: the last wins. Throws JsonInputError, or Interrupted when `stop` reports a
// signal (asked every 64 Ki values).
nlohmann::json parseBoundedJson(const std::string& text, std::size_t maxDepth,
                                std::size_t maxBytes = static_cast<std::size_t>(-1),
                                const StopRequest& stop = {});

}  // namespace nvbw

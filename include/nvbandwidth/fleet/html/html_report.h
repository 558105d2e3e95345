// The HTML view of a report: one self-contained page (inline CSS and SVG; no script, no font or
// anything else from the network) rendered from the JSON document alone, so that anything it
// shows can be checked against the JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/stop_request.h"

namespace nvbw {

// `document` is what `nvbandwidth -j` prints ({"nvbandwidth": {...}}), possibly with the
// optional "comparison" and "sweep" sections inside "nvbandwidth". Throws std::runtime_error when
// it is not a report, Interrupted when `stop` reports a signal (asked every row of a heatmap and
// every few thousand cells).
std::string renderHtmlReport(const nlohmann::json& document, const StopRequest& stop = {});

}  // namespace nvbw

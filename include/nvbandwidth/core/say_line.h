// A line of a message written to a stream in one piece.
#pragma once

#include <ostream>
#include <string_view>

namespace nvbw {

// Writes `line` and a newline in one write, then flushes: under mpirun a line written in pieces
// (`err << "nvbandwidth: " << what << std::endl` is four writes) can be cut by what another
// process, or mpirun itself, prints between them.
void sayLine(std::ostream& out, std::string_view line);

}  // namespace nvbw

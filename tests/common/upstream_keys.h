// The 35 single-node testcase keys of upstream nvbandwidth v0.8 `-l`, in its registry order
// (index = position; docs/compatibility.md#u2, tests/golden/upstream/list.txt).
// The one literal list the tests compare the registry, the listing and the CLI with.
#pragma once

#include <string>
#include <vector>

namespace nvbw::test {

inline const std::vector<std::string> kUpstreamKeys = {
    "host_to_device_memcpy_ce",                        // 0
    "device_to_host_memcpy_ce",                        // 1
    "host_to_device_bidirectional_memcpy_ce",          // 2
    "device_to_host_bidirectional_memcpy_ce",          // 3
    "device_to_device_memcpy_read_ce",                 // 4
    "device_to_device_memcpy_write_ce",                // 5
    "device_to_device_bidirectional_memcpy_read_ce",   // 6
    "device_to_device_bidirectional_memcpy_write_ce",  // 7
    "all_to_host_memcpy_ce",                           // 8
    "all_to_host_bidirectional_memcpy_ce",             // 9
    "host_to_all_memcpy_ce",                           // 10
    "host_to_all_bidirectional_memcpy_ce",             // 11
    "all_to_one_write_ce",                             // 12
    "all_to_one_read_ce",                              // 13
    "one_to_all_write_ce",                             // 14
    "one_to_all_read_ce",                              // 15
    "host_to_device_memcpy_sm",                        // 16
    "device_to_host_memcpy_sm",                        // 17
    "host_to_device_bidirectional_memcpy_sm",          // 18
    "device_to_host_bidirectional_memcpy_sm",          // 19
    "device_to_device_memcpy_read_sm",                 // 20
    "device_to_device_memcpy_write_sm",                // 21
    "device_to_device_bidirectional_memcpy_read_sm",   // 22
    "device_to_device_bidirectional_memcpy_write_sm",  // 23
    "all_to_host_memcpy_sm",                           // 24
    "all_to_host_bidirectional_memcpy_sm",             // 25
    "host_to_all_memcpy_sm",                           // 26
    "host_to_all_bidirectional_memcpy_sm",             // 27
    "all_to_one_write_sm",                             // 28
    "all_to_one_read_sm",                              // 29
    "one_to_all_write_sm",                             // 30
    "one_to_all_read_sm",                              // 31
    "host_device_latency_sm",                          // 32
    "device_to_device_latency_sm",                     // 33
    "device_local_copy",                               // 34
};

// The 13 multinode keys of upstream's MULTINODE build, at indices 35-47.
inline const std::vector<std::string> kUpstreamMultinodeKeys = {
    "multinode_device_to_device_memcpy_read_ce",                 // 35
    "multinode_device_to_device_memcpy_write_ce",                // 36
    "multinode_device_to_device_bidirectional_memcpy_read_ce",   // 37
    "multinode_device_to_device_bidirectional_memcpy_write_ce",  // 38
    "multinode_device_to_device_memcpy_read_sm",                 // 39
    "multinode_device_to_device_memcpy_write_sm",                // 40
    "multinode_device_to_device_bidirectional_memcpy_read_sm",   // 41
    "multinode_device_to_device_bidirectional_memcpy_write_sm",  // 42
    "multinode_device_to_device_all_to_one_write_sm",            // 43
    "multinode_device_to_device_all_from_one_read_sm",           // 44
    "multinode_device_to_device_broadcast_one_to_all_sm",        // 45
    "multinode_device_to_device_broadcast_all_to_all_sm",        // 46
    "multinode_bisect_write_ce",                                 // 47
};

// The testcases of upstream v0.10 this tool has, at indices 48 onwards in every build.
inline const std::vector<std::string> kV010Keys = {
    "device_to_device_memcpy_read_tma",                 // 48
    "device_to_device_memcpy_write_tma",                // 49
    "device_to_device_bidirectional_memcpy_read_tma",   // 50
    "device_to_device_bidirectional_memcpy_write_tma",  // 51
    "device_local_copy_tma",                            // 52
    "device_local_read_sm",                             // 53
    "device_local_write_sm",                            // 54
    "device_local_copy_sm",                             // 55
    "device_to_device_latency_tma",                     // 56
};
inline constexpr std::size_t kFirstV010Index = 48;

// The 44 single-node testcases of upstream v0.10's `-l`, at their indices (index = position;
// docs/compatibility.md#v010); its listing prints an empty line before index 42. Written out
// here rather than derived from the lists above, so that the --compat v0.10 registry is checked
// against the spec, not against itself.
inline const std::vector<std::string> kV010ListingKeys = {
    "host_to_device_memcpy_ce",
    "device_to_host_memcpy_ce",
    "host_to_device_bidirectional_memcpy_ce",
    "device_to_host_bidirectional_memcpy_ce",
    "device_to_device_memcpy_read_ce",
    "device_to_device_memcpy_write_ce",
    "device_to_device_bidirectional_memcpy_read_ce",
    "device_to_device_bidirectional_memcpy_write_ce",
    "all_to_host_memcpy_ce",
    "all_to_host_bidirectional_memcpy_ce",
    "host_to_all_memcpy_ce",
    "host_to_all_bidirectional_memcpy_ce",
    "all_to_one_write_ce",
    "all_to_one_read_ce",
    "one_to_all_write_ce",
    "one_to_all_read_ce",
    "host_to_device_memcpy_sm",
    "device_to_host_memcpy_sm",
    "host_to_device_bidirectional_memcpy_sm",
    "device_to_host_bidirectional_memcpy_sm",
    "device_to_device_memcpy_read_sm",
    "device_to_device_memcpy_write_sm",
    "device_to_device_bidirectional_memcpy_read_sm",
    "device_to_device_bidirectional_memcpy_write_sm",
    "all_to_host_memcpy_sm",
    "all_to_host_bidirectional_memcpy_sm",
    "host_to_all_memcpy_sm",
    "host_to_all_bidirectional_memcpy_sm",
    "all_to_one_write_sm",
    "all_to_one_read_sm",
    "one_to_all_write_sm",
    "one_to_all_read_sm",
    "host_device_latency_sm",
    "device_to_device_latency_sm",
    "device_to_device_memcpy_read_tma",
    "device_to_device_memcpy_write_tma",
    "device_to_device_bidirectional_memcpy_read_tma",
    "device_to_device_bidirectional_memcpy_write_tma",
    "device_local_copy",
    "device_local_copy_sm",
    "device_local_read_sm",
    "device_local_write_sm",
    "device_to_device_latency_tma",
    "device_local_copy_tma",
};

}  // namespace nvbw::test

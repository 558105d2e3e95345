# How CTest schedules some gtest cases, read after the discovered tests (tests/CMakeLists.txt
# appends this file to TEST_INCLUDE_FILES last).
# The COST of the slowest (seconds alone, 2-core machine): on a fresh build CTest has no timings
# of its own and would start them in file order, some of them among the last, where they run
# alone at the end of `ctest -j`. Guessed too high or too low, a cost changes the order only;
# CTest replaces it with its own measurement after the first run.
foreach(entry IN ITEMS
    "ExpectationsJson.BelowCellsBeyondTheListAreCounted:11"
    "OutputCli.KilledMidWriteLeavesTheOldFileOrTheWholeReport:10"
    "MpiFake.AKilledRankLeavesTheSurvivorsReportWhole:8"
    "Seeds/GeneratedFleet.ExactlyTheDoctoredNodesAreFlagged/1:7"
    "MpiFake.AHungRankEndsTheRunAtTheTimeoutWithOneDocument:7"
    "MpiFailures.RanksWithDifferentCommandLinesStopTogether:6"
    "Seeds/GeneratedFleet.ExactlyTheDoctoredNodesAreFlagged/2:5"
    "Seeds/GeneratedFleet.ExactlyTheDoctoredNodesAreFlagged/3:5"
    "MpiFake.AnInterruptedRunStopsEveryRankAndPrintsWhatFinished:3")
  string(FIND "${entry}" ":" colon REVERSE)
  string(SUBSTRING "${entry}" 0 ${colon} name)
  math(EXPR after "${colon} + 1")
  string(SUBSTRING "${entry}" ${after} -1 cost)
  set_tests_properties("${name}" PROPERTIES COST ${cost})
endforeach()

# The gtest cases that mostly wait (on a signal sent after a delay, measured alone on the 2-core
# machine: 0.7-1.7 s for 0.05 s of CPU) take no core (tests/CMakeLists.txt says how the cores are
# shared); the MPI tests never take one.
foreach(name IN ITEMS
    "Interrupt.ASecondSignalEndsTheProcessAtOnce"
    "Interrupt.ASignalDeliveredTwiceAtOnceIsOneRequest"
    "Signals/Interrupt.TextRunSaysSoOnStderr/signal1"
    "Signals/Interrupt.TextRunSaysSoOnStderr/signal2"
    "Signals/Interrupt.TextRunSaysSoOnStderr/signal15"
    "Signals/Interrupt.JsonRunPrintsAValidDocumentWithWhatFinished/signal1"
    "Signals/Interrupt.JsonRunPrintsAValidDocumentWithWhatFinished/signal2"
    "Signals/Interrupt.JsonRunPrintsAValidDocumentWithWhatFinished/signal15")
  set_tests_properties("${name}" PROPERTIES RESOURCE_GROUPS "")
endforeach()

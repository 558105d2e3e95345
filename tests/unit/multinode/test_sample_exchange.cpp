// Pooling a multi-process measurement's samples: each rank contributes the copies it issued.
#include <gtest/gtest.h>

#include "multinode/sample_exchange.h"

namespace nvbw {
namespace test_sample_exchange {

Measurement twoRanksTwoCopies() {
  Measurement m;
  m.copies = {makeCopy(BufferSpec::ofRank(1, 8, Sharing::Exported),
                       BufferSpec::ofRank(0, 8, Sharing::Exported), CopyMethod::CopyEngine,
                       ContextPreference::PreferDst),
              makeCopy(BufferSpec::ofRank(0, 8, Sharing::Exported),
                       BufferSpec::ofRank(1, 8, Sharing::Exported), CopyMethod::CopyEngine,
                       ContextPreference::PreferDst)};
  return m;
}

TEST(SampleExchange, EveryRankEndsWithEveryCopysSamples) {
  const Measurement m = twoRanksTwoCopies();
  MeasurementSamples rank0, rank1;
  rank0.copies = {{390.5, 391.25}, {}};  // rank 0 issued copy 0
  rank1.copies = {{}, {388.0, 389.5}};   // rank 1 issued copy 1
  const std::vector<std::string> contributions = {samplesContribution(m, rank0, 0),
                                                  samplesContribution(m, rank1, 1)};
  mergeSamples(contributions, rank0);
  mergeSamples(contributions, rank1);
  for (const MeasurementSamples* s : {&rank0, &rank1}) {
    EXPECT_EQ(s->copies[0], (std::vector<double>{390.5, 391.25}));
    EXPECT_EQ(s->copies[1], (std::vector<double>{388.0, 389.5}));
  }
}

TEST(SampleExchange, ARankWithoutCopiesContributesNothing) {
  const Measurement m = twoRanksTwoCopies();
  MeasurementSamples none;
  none.copies = {{}, {}};
  EXPECT_EQ(samplesContribution(m, none, 2), "{}");
  mergeSamples({"{}"}, none);
  EXPECT_TRUE(none.copies[0].empty());
}

TEST(SampleExchange, ValuesSurviveTheTripExactly) {
  const Measurement m = twoRanksTwoCopies();
  MeasurementSamples s;
  s.copies = {{0.1 + 0.2, 1e-300, 123456789.123456789}, {}};
  MeasurementSamples merged;
  merged.copies = {{}, {}};
  mergeSamples({samplesContribution(m, s, 0)}, merged);
  EXPECT_EQ(merged.copies[0], s.copies[0]);
}

}  // namespace test_sample_exchange
}  // namespace nvbw

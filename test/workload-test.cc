/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Tests of the workload generator: FlowSizeCdf (CDF files, mean, sampling rule, errors) and
// PoissonFlowGenerator (load, destinations, incast, reproducibility, flow-file round trip).
#include "ns3/boolean.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/hpcc-format.h"
#include "ns3/poisson-flow-generator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef DCON_SOURCE_DIR
#error "DCON_SOURCE_DIR (the repository root) must be defined"
#endif

using namespace ns3;

namespace
{

/// The repository's data directory.
const std::string DATA_DIR = std::string(DCON_SOURCE_DIR) + "/data";

/**
 * \brief Path of a built-in CDF file.
 * \param name the built-in name
 * \return its path
 */
std::string
CdfPath(const std::string& name)
{
    return DATA_DIR + "/cdf/" + name + ".txt";
}

/**
 * \brief The message of the std::invalid_argument thrown by \p f ("" if none is thrown).
 * \param f the code to run
 * \return the message
 */
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/**
 * \brief The message of the error thrown when reading \p text as a CDF named "bad.txt".
 * \param text the file contents
 * \return the message ("" if it parsed)
 */
std::string
ReadError(const std::string& text)
{
    return ErrorOf(
        [&]
        {
            std::istringstream in(text);
            FlowSizeCdf::Read(in, "bad.txt");
        });
}

/**
 * \brief Mean of \p n draws of a CDF's random variable on a fixed stream.
 * \param cdf the CDF
 * \param n the number of draws
 * \param stream the stream
 * \return the sample mean
 */
double
SampleMean(const FlowSizeCdf& cdf, uint32_t n, int64_t stream)
{
    Ptr<FlowSizeRandomVariable> rv = cdf.CreateRandomVariable();
    rv->SetStream(stream);
    double sum = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        sum += rv->GetValue();
    }
    return sum / n;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Shipped CDF files: parse, hand-computed means.
// Mean = F0*s0 + sum over segments (F_i - F_{i-1}) * (s_i + s_{i-1}) / 2.
// ---------------------------------------------------------------------------------------------

TEST(WorkloadCdf, WebSearchMean)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("websearch"));
    EXPECT_EQ(cdf.GetPoints().size(), 12u);
    EXPECT_EQ(cdf.GetName(), CdfPath("websearch"));
    // 0.15*5000 + 0.05*15000 + 0.10*25000 + 0.10*40000 + 0.13*65000 + 0.07*140000
    // + 0.10*600000 + 0.10*1.5e6 + 0.10*3.5e6 + 0.07*7.5e6 + 0.03*2e7
    // = 750 + 750 + 2500 + 4000 + 8450 + 9800 + 60000 + 150000 + 350000 + 525000 + 600000
    // = 1,711,250 bytes
    EXPECT_NEAR(cdf.GetMean(), 1711250.0, 1e-6 * 1711250.0);
}

TEST(WorkloadCdf, DataMiningMean)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("datamining"));
    EXPECT_EQ(cdf.GetPoints().size(), 7u);
    // 0.8*(100+10000)/2 = 4040
    // 0.0346*(10000+152522)/2 = 0.0346*81261 = 2811.6306
    // 0.0654*(152522+390541)/2 = 0.0654*271531.5 = 17758.1601
    // 0.053846*(390541+3223542)/2 = 0.053846*1807041.5 = 97301.956609
    // 0.036154*(3223542+1e8)/2 = 0.036154*51611771 = 1865971.968734
    // 0.01*(1e8+1e9)/2 = 5500000
    // total 7,487,883.716043 bytes
    EXPECT_NEAR(cdf.GetMean(), 7487883.716043, 1e-6 * 7487883.716043);
}

TEST(WorkloadCdf, DataMiningFineMean)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("datamining-fine"));
    EXPECT_EQ(cdf.GetPoints().size(), 17u);
    // 0.085*140 + 0.055*215 + 0.19*405 + 0.14*730 + 0.08*1000 + 0.10*1485 + 0.05*2515
    // + 0.10*6580 + 0.074*55000.5 + 0.026*250000.5 + 0.05*1125000 + 0.02*5925000
    // + 0.01*20000000 + 0.01*65000000 + 0.005*175000000 + 0.005*625000000
    // = 11.9 + 11.825 + 76.95 + 102.2 + 80 + 148.5 + 125.75 + 658 + 4070.037 + 6500.013
    // + 56250 + 118500 + 200000 + 650000 + 875000 + 3125000 = 5,036,535.175 bytes
    EXPECT_NEAR(cdf.GetMean(), 5036535.175, 1e-6 * 5036535.175);
}

TEST(WorkloadCdf, FbHadoopMean)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("fbhadoop"));
    EXPECT_EQ(cdf.GetPoints().size(), 20u);
    // 0.01*50 + 0.01*150 + 0.03*250 + 0.10*325 + 0.05*375 + 0.10*450 + 0.10*550 + 0.10*650
    // + 0.10*850 + 0.07*1500 + 0.03*4500 + 0.02*18500 + 0.10*40000 + 0.05*65000
    // + 0.03*100000 + 0.05*210000 + 0.025*650000 + 0.015*1500000 + 0.01*6000000
    // = 0.5 + 1.5 + 7.5 + 32.5 + 18.75 + 45 + 55 + 65 + 85 + 105 + 135 + 370 + 4000 + 3250
    // + 3000 + 10500 + 16250 + 22500 + 60000 = 120,420.75 bytes
    EXPECT_NEAR(cdf.GetMean(), 120420.75, 1e-6 * 120420.75);
}

// ---------------------------------------------------------------------------------------------
// Sample means. Standard deviation sd from E[X^2] = F0*s0^2 + sum (F_i - F_{i-1}) *
// (s_{i-1}^2 + s_{i-1}*s_i + s_i^2) / 3; the standard error of the mean of N draws is
// sd / sqrt(N):
//   CDF              sd (bytes)   SE at N=1e5        SE at N=4e6
//   websearch          3.97e6     12,543 (0.73%)      1,983 (0.12%)
//   fbhadoop           6.70e5      2,118 (1.76%)        335 (0.28%)
//   datamining         6.14e7    194,131 (2.59%)     30,695 (0.41%)
//   datamining-fine    4.87e7    154,149 (3.06%)     24,373 (0.48%)
// With 100,000 draws a 2% tolerance is only 0.65 .. 2.7 standard errors (0.77 for the
// heavy-tailed DataMining, whose top 1% of flows carry 73% of the bytes), so passing would be
// luck. 4,000,000 draws make 2% at least 4.1 standard errors for every CDF.
// ---------------------------------------------------------------------------------------------

/// Draws per sample-mean test (see the table above).
constexpr uint32_t N_DRAWS = 4000000;

TEST(WorkloadCdf, WebSearchSampleMean)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("websearch"));
    EXPECT_NEAR(SampleMean(cdf, N_DRAWS, 11), 1711250.0, 0.02 * 1711250.0);
}

TEST(WorkloadCdf, DataMiningSampleMean)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("datamining"));
    EXPECT_NEAR(SampleMean(cdf, N_DRAWS, 12), 7487883.716043, 0.02 * 7487883.716043);
}

TEST(WorkloadCdf, DataMiningFineSampleMean)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("datamining-fine"));
    EXPECT_NEAR(SampleMean(cdf, N_DRAWS, 13), 5036535.175, 0.02 * 5036535.175);
}

TEST(WorkloadCdf, FbHadoopSampleMean)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("fbhadoop"));
    EXPECT_NEAR(SampleMean(cdf, N_DRAWS, 14), 120420.75, 0.02 * 120420.75);
}

// ---------------------------------------------------------------------------------------------
// Sampling rule.
// ---------------------------------------------------------------------------------------------

TEST(WorkloadCdf, TwoPointCdfIsUniform)
{
    FlowSizeCdf cdf({{0, 0}, {100, 1}});
    EXPECT_DOUBLE_EQ(cdf.GetMean(), 50.0); // 1 * (0 + 100) / 2
    Ptr<FlowSizeRandomVariable> rv = cdf.CreateRandomVariable();
    rv->SetStream(21);
    const uint32_t n = 100000;
    double sum = 0;
    uint32_t below25 = 0;
    uint32_t below90 = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const double v = rv->GetValue();
        ASSERT_GE(v, 0.0);
        ASSERT_LE(v, 100.0);
        sum += v;
        below25 += v < 25;
        below90 += v < 90;
    }
    // Uniform on [0, 100]: sd = 100/sqrt(12) = 28.87, SE of the mean 28.87/sqrt(1e5) = 0.091,
    // so +-0.5 is 5.5 SE. P(X < 25) = 0.25, SE sqrt(0.25*0.75/1e5) = 0.00137, +-0.007 = 5 SE.
    // P(X < 90) = 0.9, SE sqrt(0.9*0.1/1e5) = 0.00095, +-0.005 = 5 SE.
    EXPECT_NEAR(sum / n, 50.0, 0.5);
    EXPECT_NEAR(double(below25) / n, 0.25, 0.007);
    EXPECT_NEAR(double(below90) / n, 0.90, 0.005);
}

TEST(WorkloadCdf, FirstFractionIsPointMass)
{
    FlowSizeCdf cdf({{10, 0.5}, {20, 1}});
    // 0.5*10 (point mass) + 0.5*(10 + 20)/2 = 5 + 7.5 = 12.5
    EXPECT_DOUBLE_EQ(cdf.GetMean(), 12.5);
    Ptr<FlowSizeRandomVariable> rv = cdf.CreateRandomVariable();
    rv->SetStream(22);
    const uint32_t n = 100000;
    uint32_t exactly10 = 0;
    uint32_t below15 = 0;
    double sum = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const double v = rv->GetValue();
        ASSERT_GE(v, 10.0);
        ASSERT_LE(v, 20.0);
        exactly10 += v == 10.0;
        below15 += v < 15.0;
        sum += v;
    }
    // P(X = 10) = 0.5 (SE 0.0016, +-0.008 = 5 SE); P(X < 15) = 0.5 + 0.25 = 0.75
    // (SE 0.00137, +-0.007 = 5 SE). sd: E[X^2] = 0.5*100 + 0.5*(100+200+400)/3 = 166.67,
    // var = 166.67 - 156.25 = 10.42, SE of the mean = 3.23/316 = 0.0102, +-0.05 = 4.9 SE.
    EXPECT_NEAR(double(exactly10) / n, 0.5, 0.008);
    EXPECT_NEAR(double(below15) / n, 0.75, 0.007);
    EXPECT_NEAR(sum / n, 12.5, 0.05);
}

TEST(WorkloadCdf, EqualSizesAndEqualFractions)
{
    // Uniform on [0,100] w.p. 0.5; a point mass 0.25 at 100; nothing in (100, 200); uniform on
    // [200, 300] w.p. 0.25.
    FlowSizeCdf cdf({{0, 0}, {100, 0.5}, {100, 0.75}, {200, 0.75}, {300, 1}});
    // 0.5*50 + 0.25*100 + 0*150 + 0.25*250 = 25 + 25 + 0 + 62.5 = 112.5
    EXPECT_DOUBLE_EQ(cdf.GetMean(), 112.5);
    Ptr<FlowSizeRandomVariable> rv = cdf.CreateRandomVariable();
    rv->SetStream(23);
    const uint32_t n = 100000;
    uint32_t exactly100 = 0;
    uint32_t gap = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const double v = rv->GetValue();
        exactly100 += v == 100.0;
        gap += v > 100.0 && v < 200.0;
    }
    EXPECT_NEAR(double(exactly100) / n, 0.25, 0.007); // SE 0.00137
    EXPECT_EQ(gap, 0u);
}

// Without a flat segment (all fractions distinct: every built-in CDF, and a point mass), ns-3's
// own EmpiricalRandomVariable with Interpolate = true draws the same values, value for value,
// in ns-3.37 as in later versions (a map by fraction since ns-3.40): FlowSizeRandomVariable
// keeps the results of runs with ns-3.37's class.
TEST(WorkloadCdf, DrawsAsNs3EmpiricalRandomVariable)
{
    std::vector<FlowSizeCdf> cdfs;
    for (const auto& name : FlowSizeCdf::GetBuiltinNames())
    {
        cdfs.push_back(FlowSizeCdf::ReadFile(CdfPath(name)));
    }
    cdfs.emplace_back(std::vector<std::pair<double, double>>{{10, 0.5}, {10, 0.6}, {20, 1}});
    for (const auto& cdf : cdfs)
    {
        Ptr<FlowSizeRandomVariable> ours = cdf.CreateRandomVariable();
        Ptr<EmpiricalRandomVariable> ns3 = CreateObject<EmpiricalRandomVariable>();
        ns3->SetAttribute("Interpolate", BooleanValue(true));
        for (const auto& [size, fraction] : cdf.GetPoints())
        {
            ns3->CDF(size, fraction);
        }
        for (bool antithetic : {false, true})
        {
            ours->SetStream(7);
            ns3->SetStream(7);
            ours->SetAntithetic(antithetic);
            ns3->SetAntithetic(antithetic);
            for (int i = 0; i < 20000; ++i)
            {
                ASSERT_EQ(ours->GetValue(), ns3->GetValue()) << cdf.GetName() << " draw " << i;
            }
        }
    }
}

TEST(WorkloadCdf, ToBytesRoundsToAtLeastOneByte)
{
    EXPECT_EQ(FlowSizeCdf::ToBytes(0.0), 1u);
    EXPECT_EQ(FlowSizeCdf::ToBytes(0.4), 1u);
    EXPECT_EQ(FlowSizeCdf::ToBytes(1.49), 1u);
    EXPECT_EQ(FlowSizeCdf::ToBytes(1.5), 2u);
    EXPECT_EQ(FlowSizeCdf::ToBytes(999999999.6), 1000000000u);
}

// ---------------------------------------------------------------------------------------------
// Parsing and errors.
// ---------------------------------------------------------------------------------------------

TEST(WorkloadCdf, ParsesCommentsBlankLinesTabsAndCrlf)
{
    std::istringstream in("# header\r\n\n  # indented comment\n0\t0\r\n\n1e3 0.5\n2000 "
                          "0.9999999999999\n");
    FlowSizeCdf cdf = FlowSizeCdf::Read(in, "ok.txt");
    ASSERT_EQ(cdf.GetPoints().size(), 3u);
    EXPECT_EQ(cdf.GetPoints()[1].first, 1000.0);
    EXPECT_EQ(cdf.GetPoints()[2].second, 1.0); // within 1e-9 of 1, stored as exactly 1
    EXPECT_EQ(cdf.GetName(), "ok.txt");
}

TEST(WorkloadCdf, RejectsMalformedFiles)
{
    std::string e;

    e = ReadError("# sizes\n0 0\n200 0.5\n100 1\n"); // size 100 < 200 on line 4
    EXPECT_NE(e.find("bad.txt:4:"), std::string::npos) << e;
    EXPECT_NE(e.find("'100'"), std::string::npos) << e;

    e = ReadError("0 0\n100 0.6\n200 0.5\n300 1\n"); // fraction 0.5 < 0.6 on line 3
    EXPECT_NE(e.find("bad.txt:3:"), std::string::npos) << e;
    EXPECT_NE(e.find("'0.5'"), std::string::npos) << e;

    e = ReadError("0 0\n\n100 0.99\n\n"); // last point (line 3) does not reach 1
    EXPECT_NE(e.find("bad.txt:3:"), std::string::npos) << e;
    EXPECT_NE(e.find("'0.99'"), std::string::npos) << e;

    e = ReadError("-5 0\n100 1\n"); // negative size on line 1
    EXPECT_NE(e.find("bad.txt:1:"), std::string::npos) << e;
    EXPECT_NE(e.find("'-5'"), std::string::npos) << e;

    e = ReadError("0 0\n100 abc\n"); // garbage on line 2
    EXPECT_NE(e.find("bad.txt:2:"), std::string::npos) << e;
    EXPECT_NE(e.find("'abc'"), std::string::npos) << e;

    e = ReadError("0 0\n100kB 1\n"); // trailing junk on line 2
    EXPECT_NE(e.find("bad.txt:2:"), std::string::npos) << e;
    EXPECT_NE(e.find("'100kB'"), std::string::npos) << e;

    e = ReadError("nan 0\n100 1\n"); // not finite
    EXPECT_NE(e.find("bad.txt:1:"), std::string::npos) << e;

    e = ReadError("0 0\n100 1 7\n"); // 3 fields on line 2
    EXPECT_NE(e.find("bad.txt:2:"), std::string::npos) << e;
    EXPECT_NE(e.find("'100 1 7'"), std::string::npos) << e;

    e = ReadError("0 0\n100 1.5\n"); // fraction > 1 on line 2
    EXPECT_NE(e.find("bad.txt:2:"), std::string::npos) << e;
    EXPECT_NE(e.find("'1.5'"), std::string::npos) << e;

    e = ReadError(""); // empty file: reported at line 1
    EXPECT_NE(e.find("bad.txt:1:"), std::string::npos) << e;
    EXPECT_NE(e.find("at least 2 points"), std::string::npos) << e;

    e = ReadError("# only\n# comments\n"); // no points; last line is 2
    EXPECT_NE(e.find("bad.txt:2:"), std::string::npos) << e;

    e = ReadError("100 1\n"); // a single point
    EXPECT_NE(e.find("bad.txt:1:"), std::string::npos) << e;
}

TEST(WorkloadCdf, ConstructorAndReadFileErrors)
{
    std::string e = ErrorOf(
        []
        {
            FlowSizeCdf({{0, 0}, {-1, 1}});
        });
    EXPECT_NE(e.find("cdf:2:"), std::string::npos) << e;
    e = ErrorOf(
        []
        {
            FlowSizeCdf({{0, 0}, {10, 0.5}});
        });
    EXPECT_NE(e.find("cdf:2:"), std::string::npos) << e;
    e = ErrorOf(
        []
        {
            FlowSizeCdf({{0, 1}});
        });
    EXPECT_NE(e.find("cdf:1:"), std::string::npos) << e;
    e = ErrorOf(
        []
        {
            FlowSizeCdf::ReadFile("/nonexistent/cdf.txt");
        });
    EXPECT_NE(e.find("/nonexistent/cdf.txt:0:"), std::string::npos) << e;
}

TEST(WorkloadCdf, FindBuiltin)
{
    EXPECT_EQ(FlowSizeCdf::FindBuiltin("WebSearch", DATA_DIR), CdfPath("websearch"));
    EXPECT_EQ(FlowSizeCdf::FindBuiltin("DATAMINING-fine", DATA_DIR), CdfPath("datamining-fine"));
    EXPECT_EQ(FlowSizeCdf::FindBuiltin("fbhadoop", DATA_DIR), CdfPath("fbhadoop"));
    // A user file is returned unchanged.
    EXPECT_EQ(FlowSizeCdf::FindBuiltin(CdfPath("datamining"), "/nowhere"), CdfPath("datamining"));
    std::string e = ErrorOf(
        []
        {
            FlowSizeCdf::FindBuiltin("nosuch", DATA_DIR);
        });
    EXPECT_NE(e.find("'nosuch'"), std::string::npos) << e;
    EXPECT_NE(e.find("websearch, datamining, datamining-fine, fbhadoop"), std::string::npos) << e;
    e = ErrorOf(
        []
        {
            FlowSizeCdf::FindBuiltin("websearch", "/nowhere");
        });
    EXPECT_NE(e.find("/nowhere/cdf/websearch.txt"), std::string::npos) << e;
    e = ErrorOf(
        []
        {
            FlowSizeCdf::FindBuiltin(DATA_DIR + "/cdf", DATA_DIR);
        }); // a directory: named as such
    EXPECT_NE(e.find("is a folder, not a CDF file"), std::string::npos) << e;
}

// ---------------------------------------------------------------------------------------------
// PoissonFlowGenerator.
// ---------------------------------------------------------------------------------------------

namespace
{

/**
 * \brief 16 hosts with non-contiguous ids 1, 3, ..., 31 (so ids, not indices, are checked).
 * \return the host ids
 */
std::vector<uint32_t>
SixteenHosts()
{
    std::vector<uint32_t> hosts;
    for (uint32_t i = 0; i < 16; ++i)
    {
        hosts.push_back(2 * i + 1);
    }
    return hosts;
}

} // namespace

// Load tests: 16 hosts at 100 Gbps, WebSearch (mean 1,711,250 B), load 0.5, window [1 s, 5 s).
// lambda = 0.5 * 1e11 / (8 * 1711250) = 3652.30 flows/s per host; expected flows
// N = 16 * 4 * 3652.30 = 233,747. The realised load is a compound Poisson sum: its relative SE
// is sqrt(E[S^2]) / (mean * sqrt(N)) = sqrt(6.372) / sqrt(233747) = 0.52%, so 3% is 5.7 SE.
// The flow count has relative SE 1/sqrt(N) = 0.21%; 1.5% is 7 SE.
TEST(WorkloadGenerator, OfferedLoadWithoutIncast)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("websearch"));
    PoissonFlowGenerator gen(SixteenHosts(), DataRate("100Gbps"), cdf);
    gen.SetLoad(0.5);
    gen.SetArrivalWindow(Seconds(1), Seconds(4));
    EXPECT_EQ(gen.AssignStreams(100), 5);
    EXPECT_NEAR(gen.GetFlowArrivalRate(), 3652.30, 0.01);
    EXPECT_EQ(gen.GetIncastEventRate(), 0.0);
    std::vector<FlowSpec> flows = gen.Generate();
    EXPECT_NEAR(double(flows.size()), 233747.0, 0.015 * 233747.0);
    EXPECT_NEAR(gen.GetOfferedLoad(flows), 0.5, 0.03 * 0.5);

    // Window, order, fields.
    for (size_t i = 0; i < flows.size(); ++i)
    {
        const FlowSpec& f = flows[i];
        ASSERT_GE(f.start, Seconds(1));
        ASSERT_LT(f.start, Seconds(5));
        ASSERT_GE(f.sizeBytes, 1u);
        ASSERT_LE(f.sizeBytes, 30000000u);
        ASSERT_EQ(f.priorityGroup, 3u);
        ASSERT_EQ(f.dport, 100);
        if (i > 0)
        {
            const FlowSpec& p = flows[i - 1];
            ASSERT_TRUE(
                p.start < f.start
                || (p.start == f.start && (p.src < f.src || (p.src == f.src && p.dst <= f.dst))));
        }
    }
}

// With incast: share 0.3, 8 senders x 1,000,000 B. Poisson part: lambda = 0.7 * 3652.30 =
// 2556.61 /s per host, N_p = 16 * 4 * 2556.61 = 163,623 flows. Incast events: 0.3 * 0.5 * 16 *
// 1e11 / (8 * 8 * 1e6) = 3750 /s, E = 15,000 events (120,000 flows). Offered bytes 0.5 * 16 *
// 1e11 * 4 / 8 = 4e11; variance N_p * E[S^2] + E * (8e6)^2 = 163623 * 6.372 * 1711250^2 +
// 15000 * 6.4e13 = 3.05e18 + 0.96e18, relative SE sqrt(4.01e18) / 4e11 = 0.50%: 3% is 6 SE.
// The event count has relative SE 1/sqrt(15000) = 0.82%; 5% is 6 SE.
TEST(WorkloadGenerator, OfferedLoadWithIncast)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("websearch"));
    PoissonFlowGenerator gen(SixteenHosts(), DataRate("100Gbps"), cdf);
    gen.SetLoad(0.5);
    gen.SetArrivalWindow(Seconds(1), Seconds(4));
    gen.SetIncast(0.3, 8, 1000000);
    gen.AssignStreams(200);
    EXPECT_NEAR(gen.GetFlowArrivalRate(), 2556.61, 0.01);
    EXPECT_NEAR(gen.GetIncastEventRate(), 3750.0, 1e-9);
    std::vector<FlowSpec> flows = gen.Generate();
    EXPECT_NEAR(gen.GetOfferedLoad(flows), 0.5, 0.03 * 0.5);

    // Group by start time: Poisson flows essentially never share a picosecond (163,623 flows
    // over 4e12 ps), incast flows of one event all do.
    std::map<int64_t, std::vector<FlowSpec>> byStart;
    for (const FlowSpec& f : flows)
    {
        byStart[f.start.GetPicoSeconds()].push_back(f);
    }
    uint32_t events = 0;
    size_t poissonFlows = 0;
    for (const auto& [ps, group] : byStart)
    {
        if (group.size() == 1)
        {
            ++poissonFlows;
            continue;
        }
        ++events;
        ASSERT_EQ(group.size(), 8u);
        std::set<uint32_t> senders;
        for (const FlowSpec& f : group)
        {
            ASSERT_EQ(f.dst, group.front().dst);
            ASSERT_NE(f.src, f.dst);
            ASSERT_EQ(f.sizeBytes, 1000000u);
            senders.insert(f.src);
        }
        ASSERT_EQ(senders.size(), 8u); // distinct senders
    }
    EXPECT_NEAR(double(events), 15000.0, 0.05 * 15000.0);
    EXPECT_NEAR(double(poissonFlows), 163623.0, 0.015 * 163623.0); // SE 0.25%
}

TEST(WorkloadGenerator, DestinationsAreOtherHostsAndCoverAll)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("fbhadoop"));
    std::vector<uint32_t> hosts = SixteenHosts();
    PoissonFlowGenerator gen(hosts, DataRate("25Gbps"), cdf);
    gen.SetLoad(0.3);
    gen.SetArrivalWindow(Seconds(0), MilliSeconds(20));
    gen.AssignStreams(300);
    // No incast here (its events would cover every pair by themselves). lambda = 0.3 * 25e9 /
    // (8 * 120420.75) = 7785 /s, about 156 flows per host in 20 ms, 10.4 per destination:
    // P(some source misses some destination) ~ 240 pairs * e^-10.4 = 0.7% (fixed streams).
    std::vector<FlowSpec> flows = gen.Generate();
    std::set<uint32_t> hostSet(hosts.begin(), hosts.end());
    std::map<uint32_t, std::set<uint32_t>> dsts;
    for (const FlowSpec& f : flows)
    {
        ASSERT_NE(f.src, f.dst);
        ASSERT_EQ(hostSet.count(f.src), 1u);
        ASSERT_EQ(hostSet.count(f.dst), 1u);
        dsts[f.src].insert(f.dst);
    }
    ASSERT_EQ(dsts.size(), 16u);
    for (const auto& [src, set] : dsts)
    {
        EXPECT_EQ(set.size(), 15u) << "source " << src;
    }
}

TEST(WorkloadGenerator, SameStreamsSameFlowsDifferentStreamsDifferent)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("websearch"));
    auto make = [&](int64_t stream)
    {
        PoissonFlowGenerator gen({0, 1, 2, 3, 4, 5, 6, 7}, DataRate("100Gbps"), cdf);
        gen.SetLoad(0.7);
        gen.SetArrivalWindow(MilliSeconds(2), MilliSeconds(50));
        gen.SetIncast(0.1, 4, 65536);
        gen.SetPriorityGroup(5);
        gen.SetDport(4791);
        gen.AssignStreams(stream);
        return gen;
    };
    PoissonFlowGenerator a = make(400);
    std::vector<FlowSpec> fa = a.Generate();
    std::vector<FlowSpec> fb = make(400).Generate();
    std::vector<FlowSpec> fc = make(410).Generate();
    // Poisson flows: 8 hosts * 0.9 * 0.7 * 1e11 / (8 * 1711250) /s * 0.05 s = 1841, plus incast
    ASSERT_GT(fa.size(), 1000u);
    EXPECT_EQ(fa, fb);
    EXPECT_NE(fa, fc);
    EXPECT_EQ(a.Generate(), fa); // Generate rewinds the assigned streams
    EXPECT_EQ(fa.front().priorityGroup, 5u);
    EXPECT_EQ(fa.front().dport, 4791);
}

TEST(WorkloadGenerator, FlowFileRoundTrip)
{
    FlowSizeCdf cdf = FlowSizeCdf::ReadFile(CdfPath("datamining"));
    PoissonFlowGenerator gen({10, 11, 12, 13}, DataRate("40Gbps"), cdf);
    gen.SetLoad(0.9);
    gen.SetArrivalWindow(MicroSeconds(1500), MilliSeconds(200));
    gen.SetIncast(0.25, 3, 100000);
    gen.AssignStreams(500);
    std::vector<FlowSpec> flows = gen.Generate();
    ASSERT_GT(flows.size(), 10u);
    std::stringstream ss;
    WriteFlowFile(ss, flows);
    std::vector<FlowSpec> back = ReadFlowFile(ss, "roundtrip");
    EXPECT_EQ(back, flows);
}

TEST(WorkloadGenerator, InvalidInputsThrow)
{
    FlowSizeCdf cdf({{0, 0}, {1000, 1}});
    std::string e;
    e = ErrorOf(
        [&]
        {
            PoissonFlowGenerator({7}, DataRate("10Gbps"), cdf);
        });
    EXPECT_NE(e.find("at least 2 hosts"), std::string::npos) << e;
    e = ErrorOf(
        [&]
        {
            PoissonFlowGenerator({1, 2, 1}, DataRate("10Gbps"), cdf);
        });
    EXPECT_NE(e.find("'1'"), std::string::npos) << e;

    PoissonFlowGenerator gen({0, 1, 2, 3}, DataRate("10Gbps"), cdf);
    e = ErrorOf(
        [&]
        {
            gen.Generate();
        }); // no load yet
    EXPECT_NE(e.find("SetLoad"), std::string::npos) << e;
    e = ErrorOf(
        [&]
        {
            gen.SetLoad(0);
        });
    EXPECT_NE(e.find("'0'"), std::string::npos) << e;
    e = ErrorOf(
        [&]
        {
            gen.SetLoad(1.5);
        });
    EXPECT_NE(e.find("'1.5'"), std::string::npos) << e;
    e = ErrorOf(
        [&]
        {
            gen.SetLoad(-0.2);
        });
    EXPECT_NE(e.find("'-0.2'"), std::string::npos) << e;
    EXPECT_NO_THROW(gen.SetLoad(1));
    e = ErrorOf(
        [&]
        {
            gen.SetIncast(1.0, 2, 1000);
        });
    EXPECT_NE(e.find("'1'"), std::string::npos) << e;
    e = ErrorOf(
        [&]
        {
            gen.SetIncast(0.5, 4, 1000);
        }); // 4 senders, 4 hosts
    EXPECT_NE(e.find("'4'"), std::string::npos) << e;
    e = ErrorOf(
        [&]
        {
            gen.SetIncast(0.5, 0, 1000);
        });
    EXPECT_NE(e.find("'0'"), std::string::npos) << e;
    e = ErrorOf(
        [&]
        {
            gen.SetIncast(0.5, 2, 0);
        });
    EXPECT_NE(e.find("bytes"), std::string::npos) << e;
    EXPECT_NO_THROW(gen.SetIncast(0.5, 3, 1000));
    e = ErrorOf(
        [&]
        {
            gen.Generate();
        }); // no window yet
    EXPECT_NE(e.find("SetArrivalWindow"), std::string::npos) << e;
    e = ErrorOf(
        [&]
        {
            gen.SetArrivalWindow(Seconds(0), Seconds(0));
        });
    EXPECT_NE(e.find("duration"), std::string::npos) << e;
    e = ErrorOf(
        [&]
        {
            gen.SetArrivalWindow(Seconds(-1), Seconds(1));
        });
    EXPECT_NE(e.find("'-1s'"), std::string::npos) << e;
    e = ErrorOf(
        [&]
        {
            gen.AssignStreams(-3);
        });
    EXPECT_NE(e.find("'-3'"), std::string::npos) << e;
}

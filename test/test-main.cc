// GoogleTest entry point for the dcon test suite.
#include "ns3/nstime.h"

#include <gtest/gtest.h>

int
main(int argc, char** argv)
{
    // Same resolution as the examples: a 64 B frame at 100 Gbps lasts 5.12 ns.
    ns3::Time::SetResolution(ns3::Time::PS);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Component tests of SwitchMmu: admission, PFC pause / resume thresholds, headroom, drops.
// No network: the tests play the switch and call Admit / Release directly.
//
// Units: all sizes in bytes. QueueSize strings: "kB" = 1000 B, "KiB" = 1024 B.

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/queue-size.h"
#include "ns3/switch-mmu.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

constexpr uint32_t PKT = 1000; // packet size used throughout, bytes

/**
 * STATIC-mode MMU used by most tests:
 *   BufferSize 4 MB = 4,000,000 B, 4 ports, 8 priorities, Reserved 0,
 *   XOff 320 KiB = 327,680 B, XOn 300 KiB = 307,200 B, Headroom 100 kB = 100,000 B.
 *   pool = 4,000,000 - 4 x 100,000 = 3,600,000 B.
 */
Ptr<SwitchMmu>
MakeStatic()
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", QueueSizeValue(QueueSize("4MB")));
    mmu->SetAttribute("ThresholdMode", EnumValue(SwitchMmu::STATIC));
    mmu->SetAttribute("XOff", QueueSizeValue(QueueSize("320KiB")));
    mmu->SetAttribute("XOn", QueueSizeValue(QueueSize("300KiB")));
    mmu->SetAttribute("Headroom", QueueSizeValue(QueueSize("100kB")));
    mmu->SetAttribute("Reserved", QueueSizeValue(QueueSize("0B")));
    mmu->Configure(4, 8);
    return mmu;
}

} // namespace

TEST(SwitchMmu, StaticPoolSize)
{
    Ptr<SwitchMmu> mmu = MakeStatic();
    // 4,000,000 - 4 ports x 100,000 headroom - 4 x 8 x 0 reserved = 3,600,000
    EXPECT_EQ(mmu->GetSharedPoolSize(), 3600000u);
    EXPECT_EQ(mmu->GetPauseThreshold(), 327680u);
    EXPECT_EQ(mmu->GetNPorts(), 4u);
    EXPECT_EQ(mmu->GetNPriorities(), 8u);
}

TEST(SwitchMmu, StaticPauseExactlyAtXOff)
{
    Ptr<SwitchMmu> mmu = MakeStatic();
    uint32_t pauses = 0;
    mmu->TraceConnectWithoutContext("Pause",
                                    MakeBoundCallback(
                                        +[](uint32_t* n, uint32_t, uint8_t)
                                        {
                                            ++*n;
                                        },
                                        &pauses));
    // XOff = 327,680 B. Packet k brings the bytes to 1000 k:
    //   k = 327 -> 327,000 < 327,680 (no pause); k = 328 -> 328,000 >= 327,680 (pause).
    for (uint32_t k = 1; k <= 327; ++k)
    {
        SwitchMmu::AdmitResult r = mmu->Admit(0, 3, PKT);
        ASSERT_TRUE(r.admitted) << "packet " << k;
        ASSERT_EQ(r.dropReason, nullptr);
        ASSERT_FALSE(r.sendPause) << "paused too early at packet " << k;
    }
    EXPECT_FALSE(mmu->IsPaused(0, 3));
    EXPECT_EQ(mmu->GetSharedBytes(0, 3), 327000u);

    SwitchMmu::AdmitResult r = mmu->Admit(0, 3, PKT); // packet 328
    EXPECT_TRUE(r.admitted);
    EXPECT_TRUE(r.sendPause);
    EXPECT_TRUE(mmu->IsPaused(0, 3));
    EXPECT_EQ(mmu->GetSharedBytes(0, 3), 328000u);
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 3), 0u);
    EXPECT_EQ(pauses, 1u);

    // Only once: the next packet (into headroom) does not ask for another PAUSE.
    r = mmu->Admit(0, 3, PKT);
    EXPECT_TRUE(r.admitted);
    EXPECT_FALSE(r.sendPause);
    EXPECT_EQ(pauses, 1u);
}

TEST(SwitchMmu, StaticPauseWhenBytesEqualXOff)
{
    // 1024-B packets: packet 320 brings the bytes to 320 x 1024 = 327,680 = XOff exactly, and
    // the rule is ">=": the pause comes on packet 320, not 321.
    Ptr<SwitchMmu> mmu = MakeStatic();
    for (uint32_t k = 1; k <= 319; ++k)
    {
        ASSERT_FALSE(mmu->Admit(1, 0, 1024).sendPause) << k;
    }
    EXPECT_EQ(mmu->GetIngressBytes(1, 0), 326656u); // 319 x 1024
    EXPECT_TRUE(mmu->Admit(1, 0, 1024).sendPause);
    EXPECT_EQ(mmu->GetIngressBytes(1, 0), 327680u);
}

TEST(SwitchMmu, StaticHeadroomAfterPauseThenDrop)
{
    Ptr<SwitchMmu> mmu = MakeStatic();
    uint32_t drops = 0;
    uint32_t droppedBytes = 0;
    struct Ctx
    {
        uint32_t* n;
        uint32_t* b;
    } ctx{&drops, &droppedBytes};
    mmu->TraceConnectWithoutContext(
        "Drop",
        MakeBoundCallback(
            +[](Ctx* c, uint32_t port, uint8_t prio, uint32_t bytes, const char* reason)
            {
                ++*c->n;
                *c->b += bytes;
                EXPECT_EQ(port, 0u);
                EXPECT_EQ(prio, 3);
                EXPECT_STREQ(reason, SwitchMmu::HEADROOM_FULL);
            },
            &ctx));

    for (uint32_t k = 1; k <= 328; ++k) // 328 packets: paused at 328,000 B (see above)
    {
        mmu->Admit(0, 3, PKT);
    }
    ASSERT_TRUE(mmu->IsPaused(0, 3));

    // Headroom 100,000 B per port -> exactly 100 more 1000-B packets fit.
    for (uint32_t k = 1; k <= 100; ++k)
    {
        SwitchMmu::AdmitResult r = mmu->Admit(0, 3, PKT);
        ASSERT_TRUE(r.admitted) << "headroom packet " << k;
        ASSERT_FALSE(r.sendPause);
        ASSERT_EQ(mmu->GetHeadroomBytes(0, 3), k * PKT);
        ASSERT_EQ(mmu->GetSharedBytes(0, 3), 328000u); // shared does not grow
    }
    EXPECT_EQ(mmu->GetPortHeadroomBytes(0), 100000u);
    EXPECT_EQ(mmu->GetIngressBytes(0, 3), 428000u); // 328,000 shared + 100,000 headroom
    EXPECT_EQ(mmu->GetSharedUsed(), 328000u);
    EXPECT_EQ(mmu->GetTotalUsed(), 428000u);

    // 101st packet after the pause: 100,000 + 1000 > 100,000 -> HEADROOM_FULL.
    SwitchMmu::AdmitResult r = mmu->Admit(0, 3, PKT);
    EXPECT_FALSE(r.admitted);
    EXPECT_STREQ(r.dropReason, SwitchMmu::HEADROOM_FULL);
    EXPECT_FALSE(r.sendPause);
    EXPECT_EQ(mmu->GetDrops(SwitchMmu::HEADROOM_FULL), 1u);
    EXPECT_EQ(mmu->GetDrops(SwitchMmu::BUFFER_FULL), 0u);
    EXPECT_EQ(drops, 1u);
    EXPECT_EQ(droppedBytes, 1000u);
    EXPECT_EQ(mmu->GetTotalUsed(), 428000u); // the drop left no trace in the accounting
    ASSERT_EQ(mmu->GetDropCounts().size(), 1u);
    EXPECT_EQ(mmu->GetDropCounts().begin()->first, "HeadroomFull");
    EXPECT_EQ(mmu->GetDropCounts().begin()->second, 1u);
}

TEST(SwitchMmu, HeadroomLimitIsPerPortSharedByPriorities)
{
    Ptr<SwitchMmu> mmu = MakeStatic();
    for (uint32_t k = 1; k <= 328; ++k) // pause (0,3) and (0,4)
    {
        mmu->Admit(0, 3, PKT);
        mmu->Admit(0, 4, PKT);
    }
    ASSERT_TRUE(mmu->IsPaused(0, 3));
    ASSERT_TRUE(mmu->IsPaused(0, 4));
    for (uint32_t k = 1; k <= 60; ++k)
    {
        ASSERT_TRUE(mmu->Admit(0, 3, PKT).admitted);
    }
    // 60,000 B of port 0's 100,000 B used by prio 3: prio 4 gets 40 packets, the 41st drops.
    for (uint32_t k = 1; k <= 40; ++k)
    {
        ASSERT_TRUE(mmu->Admit(0, 4, PKT).admitted) << k;
    }
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 3), 60000u);
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 4), 40000u);
    EXPECT_EQ(mmu->GetPortHeadroomBytes(0), 100000u);
    EXPECT_STREQ(mmu->Admit(0, 4, PKT).dropReason, SwitchMmu::HEADROOM_FULL);
    EXPECT_STREQ(mmu->Admit(0, 3, PKT).dropReason, SwitchMmu::HEADROOM_FULL);
    EXPECT_EQ(mmu->GetDrops(SwitchMmu::HEADROOM_FULL), 2u);

    // Port 1 has its own headroom: pause (1,3) and put one packet in it.
    for (uint32_t k = 1; k <= 329; ++k)
    {
        ASSERT_TRUE(mmu->Admit(1, 3, PKT).admitted);
    }
    EXPECT_EQ(mmu->GetHeadroomBytes(1, 3), 1000u);
}

TEST(SwitchMmu, StaticResumeAtXOn)
{
    Ptr<SwitchMmu> mmu = MakeStatic();
    uint32_t resumes = 0;
    mmu->TraceConnectWithoutContext("Resume",
                                    MakeBoundCallback(
                                        +[](uint32_t* n, uint32_t, uint8_t)
                                        {
                                            ++*n;
                                        },
                                        &resumes));
    // 328 packets -> paused with 328,000 B shared; 100 more -> 100,000 B headroom.
    for (uint32_t k = 1; k <= 428; ++k)
    {
        ASSERT_TRUE(mmu->Admit(0, 3, PKT).admitted);
    }
    ASSERT_TRUE(mmu->IsPaused(0, 3));

    // Releases 1..100 drain the headroom first; after 100 the headroom is empty but the
    // non-headroom bytes are 328,000 > XOn 307,200: no resume yet.
    for (uint32_t j = 1; j <= 100; ++j)
    {
        ASSERT_FALSE(mmu->Release(0, 3, PKT)) << "release " << j;
        ASSERT_EQ(mmu->GetSharedBytes(0, 3), 328000u);
    }
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 3), 0u);
    EXPECT_EQ(mmu->GetPortHeadroomBytes(0), 0u);
    // Then 328,000 - 1000 j <= 307,200 first for j = 21 (307,000); j = 20 gives 308,000.
    for (uint32_t j = 1; j <= 20; ++j)
    {
        ASSERT_FALSE(mmu->Release(0, 3, PKT)) << "shared release " << j;
    }
    EXPECT_EQ(mmu->GetSharedBytes(0, 3), 308000u);
    EXPECT_TRUE(mmu->IsPaused(0, 3));
    EXPECT_TRUE(mmu->Release(0, 3, PKT)); // 307,000 <= 307,200
    EXPECT_FALSE(mmu->IsPaused(0, 3));
    EXPECT_EQ(resumes, 1u);
    // Only once.
    EXPECT_FALSE(mmu->Release(0, 3, PKT));
    EXPECT_EQ(resumes, 1u);
    EXPECT_EQ(mmu->GetIngressBytes(0, 3), 306000u);

    // Not paused any more: the next packets go to the shared pool, and the next PAUSE comes
    // when 306,000 + 1000 n >= 327,680, i.e. n = 22 (328,000).
    for (uint32_t n = 1; n <= 21; ++n)
    {
        SwitchMmu::AdmitResult r = mmu->Admit(0, 3, PKT);
        ASSERT_FALSE(r.sendPause) << n;
    }
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 3), 0u);
    EXPECT_TRUE(mmu->Admit(0, 3, PKT).sendPause);
    EXPECT_EQ(mmu->GetMaxTotalUsed(), 428000u);
}

TEST(SwitchMmu, StaticResumeNeedsEmptyHeadroomOfThisPriority)
{
    // XOff 327,680 B, XOn 307,200 B. While any byte of this (port, priority) is in headroom,
    // no resume, whatever its shared bytes.
    Ptr<SwitchMmu> mmu = MakeStatic();
    for (uint32_t k = 1; k <= 329; ++k) // 328 shared + 1 in headroom
    {
        mmu->Admit(0, 3, PKT);
    }
    // Release 500 B: headroom 500 B left -> no resume although shared is unchanged.
    EXPECT_FALSE(mmu->Release(0, 3, 500));
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 3), 500u);
    EXPECT_EQ(mmu->GetSharedBytes(0, 3), 328000u);
    // Release 21,500 B: 500 from headroom, 21,000 from shared -> 307,000 <= 307,200: resume.
    EXPECT_TRUE(mmu->Release(0, 3, 21500));
    EXPECT_EQ(mmu->GetSharedBytes(0, 3), 307000u);
}

TEST(SwitchMmu, ResumeDoesNotWaitForOtherPrioritiesHeadroom)
{
    // (0,3) and (0,4) both paused (328 packets each) with 10 headroom packets each. (0,3)
    // drains completely while (0,4) still holds 10,000 B of port 0's headroom: (0,3) must
    // resume anyway (a per-port condition would leave it paused with nothing left to release).
    Ptr<SwitchMmu> mmu = MakeStatic();
    for (uint32_t k = 1; k <= 338; ++k)
    {
        mmu->Admit(0, 3, PKT);
        mmu->Admit(0, 4, PKT);
    }
    ASSERT_EQ(mmu->GetPortHeadroomBytes(0), 20000u);
    // (0,3): 10 releases empty its headroom (328,000 > XOn: no resume), then 20 more give
    // 308,000 (no resume), the 31st gives 307,000 <= 307,200: resume.
    uint32_t resumedAt = 0;
    for (uint32_t j = 1; j <= 338; ++j)
    {
        if (mmu->Release(0, 3, PKT))
        {
            EXPECT_EQ(resumedAt, 0u) << "resumed twice";
            resumedAt = j;
        }
    }
    EXPECT_EQ(resumedAt, 31u);
    EXPECT_FALSE(mmu->IsPaused(0, 3));
    EXPECT_TRUE(mmu->IsPaused(0, 4));
    EXPECT_EQ(mmu->GetPortHeadroomBytes(0), 10000u);
}

TEST(SwitchMmu, NoPauseBelowXOffAndPrioritiesIndependent)
{
    Ptr<SwitchMmu> mmu = MakeStatic();
    // (0,3) is paused at 328 packets; (0,4), (1,3) and (2,0) hold 327 packets = 327,000 B each,
    // below XOff = 327,680 B: they must never pause, and go to shared, not headroom.
    for (uint32_t k = 1; k <= 328; ++k)
    {
        mmu->Admit(0, 3, PKT);
    }
    ASSERT_TRUE(mmu->IsPaused(0, 3));
    for (uint32_t k = 1; k <= 327; ++k)
    {
        EXPECT_FALSE(mmu->Admit(0, 4, PKT).sendPause);
        EXPECT_FALSE(mmu->Admit(1, 3, PKT).sendPause);
        EXPECT_FALSE(mmu->Admit(2, 0, PKT).sendPause);
    }
    EXPECT_FALSE(mmu->IsPaused(0, 4));
    EXPECT_FALSE(mmu->IsPaused(1, 3));
    EXPECT_FALSE(mmu->IsPaused(2, 0));
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 4), 0u);
    EXPECT_EQ(mmu->GetSharedBytes(0, 4), 327000u);
    // shared used = 328,000 + 3 x 327,000 = 1,309,000
    EXPECT_EQ(mmu->GetSharedUsed(), 1309000u);
    EXPECT_EQ(mmu->GetDropCounts().size(), 0u);
}

TEST(SwitchMmu, PoolFullPausesAndUsesHeadroom)
{
    // Buffer 100,000 B, 2 ports, Headroom 10,000 B -> pool = 100,000 - 2 x 10,000 = 80,000 B.
    // XOff 90,000 B is never reached in the pool, but when the pool is full the packet goes to
    // headroom, and that must pause the (port, priority) at once.
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", QueueSizeValue(QueueSize("100kB")));
    mmu->SetAttribute("ThresholdMode", EnumValue(SwitchMmu::STATIC));
    mmu->SetAttribute("XOff", QueueSizeValue(QueueSize("90kB")));
    mmu->SetAttribute("XOn", QueueSizeValue(QueueSize("80kB")));
    mmu->SetAttribute("Headroom", QueueSizeValue(QueueSize("10kB")));
    mmu->Configure(2, 8);
    ASSERT_EQ(mmu->GetSharedPoolSize(), 80000u);
    for (uint32_t k = 1; k <= 80; ++k)
    {
        SwitchMmu::AdmitResult r = mmu->Admit(0, 0, PKT);
        ASSERT_TRUE(r.admitted);
        ASSERT_FALSE(r.sendPause) << k;
    }
    SwitchMmu::AdmitResult r = mmu->Admit(0, 0, PKT); // pool full -> headroom -> pause
    EXPECT_TRUE(r.admitted);
    EXPECT_TRUE(r.sendPause);
    EXPECT_EQ(mmu->GetHeadroomBytes(0, 0), 1000u);
    r = mmu->Admit(1, 5, PKT); // other port: pool full as well -> its headroom, pause
    EXPECT_TRUE(r.admitted);
    EXPECT_TRUE(r.sendPause);
    EXPECT_EQ(mmu->GetHeadroomBytes(1, 5), 1000u);
    for (uint32_t k = 2; k <= 10; ++k) // port 0 headroom: 10 packets in all
    {
        ASSERT_TRUE(mmu->Admit(0, 0, PKT).admitted);
    }
    EXPECT_STREQ(mmu->Admit(0, 0, PKT).dropReason, SwitchMmu::HEADROOM_FULL);
    // Total = 80,000 + 10,000 + 1,000 = 91,000 <= 100,000
    EXPECT_EQ(mmu->GetTotalUsed(), 91000u);
    // (0,0) holds 80,000 shared + 10,000 headroom. Releases 1..9 leave headroom > 0; release 10
    // empties it, and then shared 80,000 <= XOn 80,000: resume.
    for (uint32_t j = 1; j <= 9; ++j)
    {
        ASSERT_FALSE(mmu->Release(0, 0, PKT));
    }
    EXPECT_TRUE(mmu->Release(0, 0, PKT));
}

TEST(SwitchMmu, ReservedIsUsedFirstAndSplit)
{
    // Buffer 1,000,000 B, 2 ports, 8 prios, Headroom 10,000 B, Reserved 2,000 B:
    // pool = 1,000,000 - 2 x 10,000 - 2 x 8 x 2,000 = 948,000 B.
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", QueueSizeValue(QueueSize("1MB")));
    mmu->SetAttribute("ThresholdMode", EnumValue(SwitchMmu::STATIC));
    mmu->SetAttribute("XOff", QueueSizeValue(QueueSize("320KiB")));
    mmu->SetAttribute("XOn", QueueSizeValue(QueueSize("300KiB")));
    mmu->SetAttribute("Headroom", QueueSizeValue(QueueSize("10kB")));
    mmu->SetAttribute("Reserved", QueueSizeValue(QueueSize("2kB")));
    mmu->Configure(2, 8);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 948000u);

    mmu->Admit(1, 2, 1500); // reserved 1,500
    EXPECT_EQ(mmu->GetReservedBytes(1, 2), 1500u);
    EXPECT_EQ(mmu->GetSharedBytes(1, 2), 0u);
    mmu->Admit(1, 2, 1000); // 500 completes reserved, 500 to shared
    EXPECT_EQ(mmu->GetReservedBytes(1, 2), 2000u);
    EXPECT_EQ(mmu->GetSharedBytes(1, 2), 500u);
    EXPECT_EQ(mmu->GetSharedUsed(), 500u);
    EXPECT_EQ(mmu->GetIngressBytes(1, 2), 2500u);

    // Release 1000: 500 from shared, then 500 from reserved.
    mmu->Release(1, 2, 1000);
    EXPECT_EQ(mmu->GetSharedBytes(1, 2), 0u);
    EXPECT_EQ(mmu->GetReservedBytes(1, 2), 1500u);
    EXPECT_EQ(mmu->GetSharedUsed(), 0u);
    EXPECT_EQ(mmu->GetTotalUsed(), 1500u);
}

TEST(SwitchMmu, DynamicThresholdAndPause)
{
    // Buffer 1 MB = 1,000,000 B, 4 ports, Headroom 10 kB, Reserved 0, Alpha 1/8,
    // ResumeOffset 3 kB = 3,000 B.
    // pool = 1,000,000 - 4 x 10,000 = 960,000 B; T = floor(0.125 x (960,000 - sharedUsed)).
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", QueueSizeValue(QueueSize("1MB")));
    mmu->SetAttribute("ThresholdMode", EnumValue(SwitchMmu::DYNAMIC));
    mmu->SetAttribute("Alpha", DoubleValue(0.125));
    mmu->SetAttribute("Headroom", QueueSizeValue(QueueSize("10kB")));
    mmu->SetAttribute("ResumeOffset", QueueSizeValue(QueueSize("3kB")));
    mmu->Configure(4, 8);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 960000u);
    EXPECT_EQ(mmu->GetPauseThreshold(), 120000u); // 0.125 x 960,000

    // (1,3) takes 100 packets: shared 100,000 vs T = 0.125 x 860,000 = 107,500 -> no pause.
    for (uint32_t k = 1; k <= 100; ++k)
    {
        ASSERT_FALSE(mmu->Admit(1, 3, PKT).sendPause) << k;
    }
    EXPECT_EQ(mmu->GetPauseThreshold(), 107500u);

    // (0,3) now: after k packets shared(0,3) = 1000 k, sharedUsed = 100,000 + 1000 k,
    // T = 0.125 x (860,000 - 1000 k) = 107,500 - 125 k. Pause when 1000 k >= 107,500 - 125 k,
    // i.e. 1125 k >= 107,500, k >= 95.6 -> k = 96:
    //   k = 95: 95,000 < T = 95,625; k = 96: 96,000 >= T = 95,500.
    for (uint32_t k = 1; k <= 95; ++k)
    {
        ASSERT_FALSE(mmu->Admit(0, 3, PKT).sendPause) << k;
    }
    EXPECT_EQ(mmu->GetPauseThreshold(), 95625u);
    SwitchMmu::AdmitResult r = mmu->Admit(0, 3, PKT);
    EXPECT_TRUE(r.sendPause);
    EXPECT_TRUE(mmu->IsPaused(0, 3));
    EXPECT_EQ(mmu->GetPauseThreshold(), 95500u);
    EXPECT_FALSE(mmu->IsPaused(1, 3)); // 100,000 vs 95,500 but not re-evaluated until it admits

    // Resume: after j releases from (0,3), shared = 96,000 - 1000 j,
    // T = 0.125 x (764,000 + 1000 j) = 95,500 + 125 j. Resume when
    // 96,000 - 1000 j + 3,000 <= 95,500 + 125 j  <=>  3,500 <= 1125 j  <=>  j >= 3.1 -> j = 4:
    //   j = 3: 96,000 > 95,875; j = 4: 95,000 <= 96,000.
    for (uint32_t j = 1; j <= 3; ++j)
    {
        ASSERT_FALSE(mmu->Release(0, 3, PKT)) << j;
    }
    EXPECT_TRUE(mmu->Release(0, 3, PKT));
    EXPECT_FALSE(mmu->IsPaused(0, 3));
    EXPECT_EQ(mmu->GetPauseThreshold(), 96000u);
}

TEST(SwitchMmu, DynamicSingleQueueFixedPoint)
{
    // Same MMU, one queue alone: pause when 1000 k >= 0.125 (960,000 - 1000 k),
    // 1125 k >= 120,000, k >= 106.7 -> k = 107 (k = 106: 106,000 < 106,750;
    // k = 107: 107,000 >= 106,625).
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", QueueSizeValue(QueueSize("1MB")));
    mmu->SetAttribute("Alpha", DoubleValue(0.125));
    mmu->SetAttribute("Headroom", QueueSizeValue(QueueSize("10kB")));
    mmu->Configure(4, 8); // DYNAMIC is the default
    for (uint32_t k = 1; k <= 106; ++k)
    {
        ASSERT_FALSE(mmu->Admit(2, 7, PKT).sendPause) << k;
    }
    EXPECT_TRUE(mmu->Admit(2, 7, PKT).sendPause);
    // Further packets go to headroom: 10 fit in 10,000 B, the 11th is dropped.
    for (uint32_t k = 1; k <= 10; ++k)
    {
        ASSERT_TRUE(mmu->Admit(2, 7, PKT).admitted);
    }
    EXPECT_EQ(mmu->GetHeadroomBytes(2, 7), 10000u);
    EXPECT_EQ(mmu->GetSharedBytes(2, 7), 107000u);
    EXPECT_STREQ(mmu->Admit(2, 7, PKT).dropReason, SwitchMmu::HEADROOM_FULL);
}

TEST(SwitchMmu, PfcOffFillsBufferThenDrops)
{
    // PFC off: no headroom, pool = BufferSize = 1,000,000 B (Reserved 0).
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", QueueSizeValue(QueueSize("1MB")));
    mmu->SetAttribute("PfcEnabled", BooleanValue(false));
    mmu->SetAttribute("Headroom", QueueSizeValue(QueueSize("100kB"))); // ignored
    mmu->Configure(4, 8);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 1000000u);
    // 666 packets of 1500 B over all (port, prio) = 999,000 B, all admitted, never a pause.
    for (uint32_t k = 0; k < 666; ++k)
    {
        SwitchMmu::AdmitResult r = mmu->Admit(k % 4, k % 8, 1500);
        ASSERT_TRUE(r.admitted) << k;
        ASSERT_FALSE(r.sendPause) << k;
    }
    EXPECT_EQ(mmu->GetTotalUsed(), 999000u);
    // 999,000 + 1500 > 1,000,000: dropped.
    SwitchMmu::AdmitResult r = mmu->Admit(0, 0, 1500);
    EXPECT_FALSE(r.admitted);
    EXPECT_STREQ(r.dropReason, SwitchMmu::BUFFER_FULL);
    // 999,000 + 1000 = 1,000,000: fits exactly.
    r = mmu->Admit(0, 0, 1000);
    EXPECT_TRUE(r.admitted);
    EXPECT_FALSE(r.sendPause);
    EXPECT_EQ(mmu->GetTotalUsed(), 1000000u);
    EXPECT_EQ(mmu->GetMaxTotalUsed(), 1000000u);
    // Full: even a 1-byte packet is dropped.
    EXPECT_STREQ(mmu->Admit(3, 7, 1).dropReason, SwitchMmu::BUFFER_FULL);
    EXPECT_EQ(mmu->GetDrops(SwitchMmu::BUFFER_FULL), 2u);
    EXPECT_EQ(mmu->GetDrops(SwitchMmu::HEADROOM_FULL), 0u);
    for (uint32_t p = 0; p < 4; ++p)
    {
        for (uint8_t c = 0; c < 8; ++c)
        {
            EXPECT_FALSE(mmu->IsPaused(p, c));
            EXPECT_EQ(mmu->GetHeadroomBytes(p, c), 0u);
        }
    }
    // Release returns false without PFC, and frees room.
    EXPECT_FALSE(mmu->Release(0, 0, 1000));
    EXPECT_TRUE(mmu->Admit(0, 0, 1000).admitted);
}

TEST(SwitchMmu, ConfigureErrors)
{
    // 4 ports x Headroom 30,000 = 120,000 > BufferSize 100,000.
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", QueueSizeValue(QueueSize("100kB")));
    mmu->SetAttribute("Headroom", QueueSizeValue(QueueSize("30kB")));
    try
    {
        mmu->Configure(4, 8);
        FAIL() << "expected BufferTooSmallError";
    }
    catch (const BufferTooSmallError& e)
    {
        std::string msg = e.what();
        EXPECT_NE(msg.find("100000"), std::string::npos) << msg;
        EXPECT_NE(msg.find("30000"), std::string::npos) << msg;
        EXPECT_NE(msg.find("120000"), std::string::npos) << msg;
    }
    // 3 ports x 30,000 = 90,000 fits; plus 3 x 8 x 500 reserved = 12,000 -> 102,000 does not.
    EXPECT_NO_THROW(mmu->Configure(3, 8));
    EXPECT_EQ(mmu->GetSharedPoolSize(), 10000u);
    mmu->SetAttribute("Reserved", QueueSizeValue(QueueSize("500B")));
    EXPECT_THROW(mmu->Configure(3, 8), BufferTooSmallError);

    // XOn > XOff in STATIC mode.
    Ptr<SwitchMmu> s = CreateObject<SwitchMmu>();
    s->SetAttribute("ThresholdMode", EnumValue(SwitchMmu::STATIC));
    s->SetAttribute("XOff", QueueSizeValue(QueueSize("100kB")));
    s->SetAttribute("XOn", QueueSizeValue(QueueSize("101kB")));
    EXPECT_THROW(s->Configure(4, 8), std::invalid_argument);
    // ... is fine in DYNAMIC mode, where XOn/XOff are not used.
    s->SetAttribute("ThresholdMode", EnumValue(SwitchMmu::DYNAMIC));
    EXPECT_NO_THROW(s->Configure(4, 8));
    // Alpha <= 0 in DYNAMIC mode.
    s->SetAttribute("Alpha", DoubleValue(0.0));
    EXPECT_THROW(s->Configure(4, 8), std::invalid_argument);

    // Counts and units.
    Ptr<SwitchMmu> d = CreateObject<SwitchMmu>();
    EXPECT_THROW(d->Configure(0, 8), std::invalid_argument);
    EXPECT_THROW(d->Configure(4, 0), std::invalid_argument);
    EXPECT_THROW(d->Configure(4, 9), std::invalid_argument);
    d->SetAttribute("BufferSize", QueueSizeValue(QueueSize("1000p")));
    EXPECT_THROW(d->Configure(4, 8), std::invalid_argument);
}

TEST(SwitchMmu, OutOfRangeArgumentsThrow)
{
    Ptr<SwitchMmu> notConfigured = CreateObject<SwitchMmu>();
    EXPECT_THROW(notConfigured->Admit(0, 0, PKT), std::invalid_argument);

    Ptr<SwitchMmu> mmu = MakeStatic(); // 4 ports, 8 priorities
    EXPECT_THROW(mmu->Admit(4, 0, PKT), std::invalid_argument);
    EXPECT_THROW(mmu->Admit(0, 8, PKT), std::invalid_argument);
    EXPECT_THROW(mmu->Release(4, 0, PKT), std::invalid_argument);
    EXPECT_THROW(mmu->Release(0, 8, PKT), std::invalid_argument);
    EXPECT_THROW(mmu->IsPaused(4, 0), std::invalid_argument);
    EXPECT_THROW(mmu->GetIngressBytes(0, 8), std::invalid_argument);
    EXPECT_THROW(mmu->GetPortHeadroomBytes(4), std::invalid_argument);
    EXPECT_NO_THROW(mmu->Admit(3, 7, PKT));
    // The messages name the call and the bad value.
    auto message = [](auto&& call)
    {
        try
        {
            call();
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string("no exception");
    };
    EXPECT_EQ(message(
                  [&]
                  {
                      notConfigured->Admit(0, 0, PKT);
                  }),
              "SwitchMmu::Admit: Configure() has not been called");
    EXPECT_EQ(message(
                  [&]
                  {
                      mmu->Admit(4, 0, PKT);
                  }),
              "SwitchMmu::Admit: port 4 out of range (4 ports)");
    EXPECT_EQ(message(
                  [&]
                  {
                      mmu->Release(0, 8, PKT);
                  }),
              "SwitchMmu::Release: priority 8 out of range (8 priorities)");

    // Releasing more than held is an accounting bug; the state is left unchanged.
    EXPECT_THROW(mmu->Release(3, 7, PKT + 1), std::logic_error);
    EXPECT_THROW(mmu->Release(2, 7, 1), std::logic_error);
    EXPECT_EQ(mmu->GetIngressBytes(3, 7), 1000u);
    EXPECT_EQ(mmu->GetTotalUsed(), 1000u);
}

TEST(SwitchMmu, FewerPrioritiesSizesTables)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->Configure(2, 2); // defaults: 32 MB, headroom 100 kB -> pool 32,000,000 - 200,000
    EXPECT_EQ(mmu->GetSharedPoolSize(), 31800000u);
    EXPECT_NO_THROW(mmu->Admit(1, 1, PKT));
    EXPECT_THROW(mmu->Admit(1, 2, PKT), std::invalid_argument);
    EXPECT_EQ(mmu->GetIngressBytes(1, 1), 1000u);
}

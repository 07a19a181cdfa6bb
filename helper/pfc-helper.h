/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_HELPER_H
#define PFC_HELPER_H

#include "ns3/trace-helper.h"

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief Pcap tracing of PfcNetDevices, as PointToPointHelper does for its devices.
 *
 * Captures use the Ethernet link type (DLT_EN10MB), so Wireshark decodes the Ethernet, PFC
 * (MAC Control), IPv4, UDP and InfiniBand BTH headers. Both directions of a port are captured.
 * The FCS is not in the capture (as with most capture hardware).
 */
class PfcHelper : public PcapHelperForDevice
{
public:
    PfcHelper();

private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;
};

} // namespace ns3

#endif /* PFC_HELPER_H */

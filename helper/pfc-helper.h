/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_HELPER_H
#define PFC_HELPER_H

#include "ns3/trace-helper.h"

#include <string>
#include <utility>
#include <vector>

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

    /**
     * \brief After the run: close the pcap files this helper made and report one whose writes
     * failed (ns-3's pcap writer only records that one did), with the system's reason (a full
     * disk, a file size limit, a read-only folder), found by appending to the file once more.
     * \throws std::runtime_error "cannot write FILE: REASON"
     */
    void CloseAndCheck();

private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    std::vector<std::pair<std::string, Ptr<PcapFileWrapper>>> m_files; //!< the files made
};

} // namespace ns3

#endif /* PFC_HELPER_H */

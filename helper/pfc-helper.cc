/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-helper.h"

#include "ns3/log.h"
#include "ns3/pfc-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHelper");

PfcHelper::PfcHelper()
{
    NS_LOG_FUNCTION(this);
}

void
PfcHelper::EnablePcapInternal(std::string prefix,
                              Ptr<NetDevice> nd,
                              bool promiscuous,
                              bool explicitFilename)
{
    Ptr<PfcNetDevice> device = nd->GetObject<PfcNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("device " << nd << " is not an ns3::PfcNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename
        = explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file
        = pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<PfcNetDevice>(device, "PromiscSniffer", file);
}

} // namespace ns3

/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-helper.h"

#include "ns3/log.h"
#include "ns3/pfc-net-device.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

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
    m_files.emplace_back(filename, file);
}

void
PfcHelper::CloseAndCheck()
{
    for (const auto& [name, file] : m_files)
    {
        file->Close();
        if (!file->Fail())
        {
            continue;
        }
        // The writer keeps no errno: one more byte appended (and taken back) shows the reason.
        std::string reason = "a write failed";
        const int fd = open(name.c_str(), O_WRONLY | O_APPEND);
        if (fd < 0)
        {
            reason = std::strerror(errno);
        }
        else
        {
            struct stat st;
            const bool sized = fstat(fd, &st) == 0;
            errno = 0;
            if (write(fd, "", 1) != 1)
            {
                reason = std::strerror(errno ? errno : EIO);
            }
            else if (sized && ftruncate(fd, st.st_size) != 0)
            {
                reason = std::strerror(errno);
            }
            close(fd);
        }
        throw std::runtime_error("cannot write " + name + ": " + reason);
    }
    m_files.clear();
}

} // namespace ns3

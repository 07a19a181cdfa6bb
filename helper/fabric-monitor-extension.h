/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_MONITOR_EXTENSION_H
#define FABRIC_MONITOR_EXTENSION_H

#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"
#include "ns3/type-id.h"
#include "rdma-fabric-helper.h"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief What an algorithm adds to FabricMonitor's outputs (DCON: DconRecorder's cnm.csv and
 * summary.json's CNM and queue-state figures), so that the monitor itself names no algorithm.
 *
 * An extension registers a factory once (a static FabricMonitorExtension::Registration in its
 * .cc file). Every FabricMonitor asks each registered factory, in name order, for an extension
 * for its fabric; a factory returns nullptr when the fabric has nothing for it (e.g. no DCON
 * queue). The monitor then calls Start before the run, Collect after it on every rank of a
 * parallel run, WriteFiles with its other files and WriteSummary at the end of summary.json's
 * top-level keys.
 */
class FabricMonitorExtension : public SimpleRefCount<FabricMonitorExtension>
{
public:
    /// A node's name in the outputs (FabricMonitor::GetNodeName).
    typedef std::function<std::string(uint32_t)> NodeNames;
    /// Creates the extension for a fabric, or returns nullptr if it has nothing to record.
    typedef Ptr<FabricMonitorExtension> (*Factory)(Ptr<RdmaFabric> fabric);

    virtual ~FabricMonitorExtension() = default;

    /// Connect to the fabric's objects (before Simulator::Run).
    virtual void Start() = 0;

    /// In a parallel run, bring every rank's records to rank 0 (a collective call).
    virtual void Collect() = 0;

    /**
     * \brief Write the extension's files.
     * \param dir the output folder (exists)
     * \param name node names
     */
    virtual void WriteFiles(const std::string& dir, const NodeNames& name) const = 0;

    /**
     * \brief Write summary.json keys: each as `  "key": value,\n` (the monitor's keys come
     * first; a key after these follows).
     * \param out the stream
     * \param name node names
     */
    virtual void WriteSummary(std::ostream& out, const NodeNames& name) const = 0;

    /// Registers a factory when constructed (one static object per extension).
    class Registration
    {
    public:
        /**
         * \brief Register \p factory under \p name with the file names it writes.
         * \param name unique name (orders the extensions)
         * \param factory the factory
         * \param outputKinds the file names WriteFiles may write (FabricMonitor::GetOutputKinds)
         */
        Registration(const std::string& name,
                     Factory factory,
                     const std::vector<std::string>& outputKinds);

        /**
         * \brief Register \p factory as above, for an extension with attributes of its own.
         * \param name unique name (orders the extensions)
         * \param factory the factory
         * \param outputKinds the file names WriteFiles may write
         * \param attributeType the TypeId name holding the extension's attributes
         * \param requiredType the TypeId name a run must create for the extension to record
         * (e.g. its queue disc); GetCreatedTypes lists \p attributeType only then
         */
        Registration(const std::string& name,
                     Factory factory,
                     const std::vector<std::string>& outputKinds,
                     const std::string& attributeType,
                     const std::string& requiredType);
    };

    /**
     * \brief The attribute types of the extensions that record in a run creating \p created
     * (a program's ProgramFrame::CheckUse accepts their attributes, and refuses them otherwise).
     * \param created the types the run creates (RdmaFabricHelper::GetCreatedTypes)
     * \return the extensions' attribute types
     */
    static std::vector<TypeId> GetCreatedTypes(const std::vector<TypeId>& created);

    /**
     * \brief The extensions for a fabric, in registration-name order.
     * \param fabric the fabric
     * \return the extensions whose factory returned one
     */
    static std::vector<Ptr<FabricMonitorExtension>> CreateAll(Ptr<RdmaFabric> fabric);

    /**
     * \brief The file names of every registered extension, in name order.
     * \return e.g. {"cnm.csv"}
     */
    static std::vector<std::string> GetAllOutputKinds();
};

} // namespace ns3

#endif /* FABRIC_MONITOR_EXTENSION_H */

/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRACE_CALLBACK_REGISTRY_H
#define TRACE_CALLBACK_REGISTRY_H

#include "ns3/callback.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-util
 * \brief The callback signatures that trace sources name (the last argument of
 * TypeId::AddTraceSource, e.g. "ns3::RdmaNic::FlowCompleteTracedCallback"), each with a way to
 * make a callback of exactly that type.
 *
 * A C++ typedef cannot be found by its name at run time; this registry can. The file that
 * declares a trace source with a typedef of its own registers the typedef next to it, once:
 * \code
 *   DCON_REGISTER_TRACE_CALLBACK(ns3::MyAlgorithm::StepTracedCallback);
 * \endcode
 * (at namespace scope, with the name exactly as AddTraceSource gives it). The typedefs of ns-3
 * that dcon's trace sources use are registered by the registry itself. The test suite
 * (test/trace-sources-test.cc) finds every trace source of dcon's TypeIds through ns-3's TypeId
 * registry and connects to each a callback of the signature it documents, from here: a new
 * trace source needs no edit of the test.
 */
class TraceCallbackRegistry
{
public:
    /// Makes a callback that does nothing, of the typedef's exact function type.
    using SinkMaker = std::function<CallbackBase()>;

    /// Registers one typedef when constructed (a static object, DCON_REGISTER_TRACE_CALLBACK).
    class Registration
    {
    public:
        /**
         * \brief Register a typedef.
         * \param name the typedef's name as trace sources give it ("ns3::Class::Name")
         * \param maker makes a do-nothing callback of that type
         */
        Registration(const std::string& name, SinkMaker maker);
    };

    /**
     * \brief Whether a typedef is registered.
     * \param name its name, e.g. "ns3::Packet::TracedCallback"
     * \return true if it is
     */
    static bool Has(const std::string& name);

    /**
     * \brief A callback of the typedef's type that does nothing (to connect to a trace source
     * whose signature is that typedef).
     * \param name the typedef's name
     * \return the callback
     * \throws std::invalid_argument naming \p name if it is not registered
     */
    static CallbackBase MakeSink(const std::string& name);

    /**
     * \brief The registered names, ordered.
     * \return the names
     */
    static std::vector<std::string> GetNames();
};

namespace trace_callback_detail
{
/// A trace sink of any signature: does nothing.
template <typename... Args>
void
Sink(Args...)
{
}

/// The sink whose type is exactly the function pointer type \p F (a callback typedef).
template <typename F>
struct SinkOf;

/// The sink of a typedef void (*F)(Args...).
template <typename... Args>
struct SinkOf<void (*)(Args...)>
{
    /**
     * \brief The sink.
     * \return a function of the typedef's type
     */
    static void (*Get())(Args...)
    {
        return &Sink<Args...>;
    }
};
} // namespace trace_callback_detail

} // namespace ns3

/// Concatenation for a unique name per registration.
#define DCON_TRACE_CALLBACK_CAT2(a, b) a##b
/// Concatenation after expansion.
#define DCON_TRACE_CALLBACK_CAT(a, b)  DCON_TRACE_CALLBACK_CAT2(a, b)

/**
 * \ingroup dcon-util
 * \brief Register the callback typedef \p T (written fully qualified, as the trace source names
 * it) with TraceCallbackRegistry. Use once per typedef, at namespace scope of a .cc file.
 */
#define DCON_REGISTER_TRACE_CALLBACK(T)                                                           \
    static const ::ns3::TraceCallbackRegistry::Registration DCON_TRACE_CALLBACK_CAT(              \
        g_dconTraceCallback, __LINE__)(#T,                                                        \
                                       []() -> ::ns3::CallbackBase                                \
                                       {                                                          \
                                           T fn = ::ns3::trace_callback_detail::SinkOf<T>::Get(); \
                                           return ::ns3::MakeCallback(fn);                        \
                                       })

#endif /* TRACE_CALLBACK_REGISTRY_H */

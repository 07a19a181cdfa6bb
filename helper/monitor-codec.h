/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MONITOR_CODEC_H
#define MONITOR_CODEC_H

// Internal to the monitors (not installed): time formatting of the output files and the byte
// format in which parallel ranks exchange their records (FabricMonitor::Collect,
// DconRecorder::Collect).

#include "ns3/nstime.h"

#include <cstring>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{
namespace monitor_codec
{

/**
 * \brief Seconds with picosecond digits.
 * \param t the time
 * \return e.g. "0.000012345678"
 */
inline std::string
Seconds(Time t)
{
    std::ostringstream os;
    int64_t ps = t.GetPicoSeconds();
    os << ps / 1000000000000LL << "." << std::setw(12) << std::setfill('0') << ps % 1000000000000LL;
    return os.str();
}
/// Appends numbers and strings to a byte string (the ranks' exchange format; one build, one
/// byte order, so raw copies are fine).
class Encoder
{
public:
    template <typename T>
    void
    Put(T v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        buf.append(reinterpret_cast<const char*>(&v), sizeof(v));
    }

    void
    PutTime(Time t)
    {
        Put<int64_t>(t.GetTimeStep());
    }

    /// Samples (time, value): all of them when \p mine, none otherwise.
    template <typename T>
    void
    PutSamples(const std::vector<std::pair<Time, T>>& samples, bool mine)
    {
        Put<uint64_t>(mine ? samples.size() : 0);
        for (std::size_t i = 0; mine && i < samples.size(); ++i)
        {
            PutTime(samples[i].first);
            Put(samples[i].second);
        }
    }

    void
    PutString(const std::string& str)
    {
        Put<uint64_t>(str.size());
        buf.append(str);
    }

    std::string buf; //!< what was written
};

/// Reads what Encoder wrote.
class Decoder
{
public:
    explicit Decoder(const std::string& b)
        : buf(b)
    {
    }

    template <typename T>
    T
    Get()
    {
        T v;
        Need(sizeof(T));
        std::memcpy(&v, buf.data() + pos, sizeof(T));
        pos += sizeof(T);
        return v;
    }

    Time
    GetTime()
    {
        return TimeStep(Get<int64_t>());
    }

    /// What PutSamples wrote, appended to \p samples (cleared first when \p owner).
    template <typename T>
    void
    GetSamples(std::vector<std::pair<Time, T>>& samples, bool owner)
    {
        auto n = Get<uint64_t>();
        if (owner)
        {
            samples.clear();
        }
        for (; n > 0; --n)
        {
            Time t = GetTime();
            samples.emplace_back(t, Get<T>());
        }
    }

    std::string
    GetString()
    {
        auto n = Get<uint64_t>();
        Need(n);
        std::string str = buf.substr(pos, n);
        pos += n;
        return str;
    }

    bool
    AtEnd() const
    {
        return pos == buf.size();
    }

private:
    void
    Need(std::size_t n) const
    {
        if (buf.size() - pos < n)
        {
            throw std::runtime_error("Collect: a rank's data is truncated");
        }
    }

    const std::string& buf;
    std::size_t pos{0};
};

} // namespace monitor_codec
} // namespace ns3

#endif /* MONITOR_CODEC_H */

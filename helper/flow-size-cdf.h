/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLOW_SIZE_CDF_H
#define FLOW_SIZE_CDF_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief Samples a FlowSizeCdf (FlowSizeCdf::CreateRandomVariable makes one).
 *
 * It draws u uniform in (0, 1) from its stream (1 - u if Antithetic), returns the first size
 * if u <= F0 and the last if u >= 1, and otherwise interpolates between the last point with
 * fraction <= u and the first with fraction > u, the points kept in their order: exactly the
 * sampling rule of FlowSizeCdf, equal sizes and equal fractions included. These are the draws
 * of ns-3.37's EmpiricalRandomVariable with Interpolate = true, one uniform number each, value
 * for value; since ns-3.40 that class keeps its points in a map keyed by the fraction, so a
 * flat segment (two points of one fraction) would lose its first point and draw sizes inside
 * the gap. This class gives the same draws with any ns-3 version.
 */
class FlowSizeRandomVariable : public RandomVariableStream
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Set the points to sample.
     * \param points (size_bytes, cumulative_fraction) pairs, checked by FlowSizeCdf: at least 2,
     *        non-decreasing, the last fraction exactly 1
     */
    void SetPoints(std::vector<std::pair<double, double>> points);

    /**
     * \brief Draw a size.
     * \return a size in bytes (real)
     */
    double GetValue() override;

    /**
     * \brief Draw a size, truncated to an integer.
     * \return the size in bytes, truncated
     */
    uint32_t GetInteger() override;

private:
    std::vector<std::pair<double, double>> m_points; //!< (size, fraction) points
};

/**
 * \ingroup dcon-helper
 * \brief An empirical flow-size distribution: a piecewise-linear CDF of flow sizes in bytes.
 *
 * The CDF is a list of points (size_bytes, cumulative_fraction), read from a text file with
 * one "size_bytes cumulative_fraction" pair per line; lines whose first non-blank character is
 * '#' are comments, blank lines and CR line ends are ignored (see doc/usage/workloads.rst
 * and data/cdf/ for the built-in ones: websearch, datamining, datamining-fine, fbhadoop).
 *
 * Rules (checked by Read, ReadFile and the constructor):
 * - at least 2 points, each exactly two finite decimal numbers (no trailing text);
 * - sizes >= 0 and non-decreasing (an equal size twice is a point mass), at most
 *   MAX_SIZE_BYTES (2^53, the largest whole number of bytes a double holds exactly);
 * - fractions in [0, 1] and non-decreasing (an equal fraction twice is a size range that never
 *   occurs);
 * - the last fraction is 1 within 1e-9 (it is then stored as exactly 1).
 *
 * Sampling rule: draw u uniform in (0, 1) and return the size where the linearly interpolated
 * CDF reaches u, i.e. interpolate linearly between the two CDF points around u. If the first
 * point has a fraction F0 > 0, the first size s0 is drawn with probability F0 (a point mass).
 *
 * Every error throws std::invalid_argument with the message
 * "<name>:<line>: <what is wrong>, got '<token>'" (line 0 when the file cannot be opened).
 */
class FlowSizeCdf
{
public:
    /// The largest flow size a CDF may name: 2^53 bytes (about 9.0e15), the largest whole number
    /// of bytes a double holds exactly; larger sizes could not become a uint64_t flow size.
    static constexpr double MAX_SIZE_BYTES = 9007199254740992.0;

    /**
     * \brief Build a CDF from points, checking the rules above.
     *
     * Errors name the input "cdf" and the point by its 1-based index as the line.
     * \param points (size_bytes, cumulative_fraction) pairs, in order
     * \throws std::invalid_argument if a rule is broken
     */
    explicit FlowSizeCdf(std::vector<std::pair<double, double>> points);

    /**
     * \brief Read a CDF from a stream.
     * \param in the stream to read
     * \param name the name used in error messages (usually the file name)
     * \return the CDF, named \p name
     * \throws std::invalid_argument on any malformed line or broken rule
     */
    static FlowSizeCdf Read(std::istream& in, const std::string& name);

    /**
     * \brief Read a CDF file.
     * \param path the file to read (also the name in error messages and the CDF's name)
     * \return the CDF
     * \throws std::invalid_argument if the file cannot be opened or is malformed
     */
    static FlowSizeCdf ReadFile(const std::string& path);

    /**
     * \brief Resolve a built-in CDF name or a user file.
     *
     * The built-in names are websearch, datamining, datamining-fine and fbhadoop (matched
     * case-insensitively); they resolve to \p dataDir + "/cdf/" + name + ".txt". Anything else
     * is taken as the path of a user file and returned unchanged.
     * \param nameOrPath a built-in name or a file path
     * \param dataDir the data directory (GetDataDir(): the repository's data/ folder, or the
     * installed one)
     * \return the path of the CDF file
     * \throws std::invalid_argument naming \p nameOrPath and listing the built-in names if the
     *         resulting path is not an existing regular file
     */
    static std::string FindBuiltin(const std::string& nameOrPath, const std::string& dataDir);

    /**
     * \brief The data directory of this build of dcon: the folder holding cdf/ (the built-in
     * CDFs) and rtt-predictor/ (RdmaRttPid's weights).
     *
     * The environment variable DCON_DATA_DIR if it is set; else the source tree's data/ folder
     * if it still exists; else where `cmake --install` put the data, relative to the installed
     * library (<prefix>/share/dcon).
     * \return the folder (it may not exist if none of these does)
     */
    static std::string GetDataDir();

    /**
     * \brief The built-in CDF names.
     * \return websearch, datamining, datamining-fine, fbhadoop
     */
    static std::vector<std::string> GetBuiltinNames();

    /**
     * \brief The mean flow size under linear interpolation.
     *
     * F0 * s0 (the point mass at the first size) plus, over each segment,
     * (F_i - F_{i-1}) * (s_i + s_{i-1}) / 2.
     * \return the mean in bytes (before rounding to whole bytes, see ToBytes)
     */
    double GetMean() const;

    /**
     * \brief Create a random variable that samples this CDF with the sampling rule above.
     *
     * A FlowSizeRandomVariable holding every point. Its values are sizes in bytes as real
     * numbers; use ToBytes to get a flow size. Its stream is allocated automatically: call
     * SetStream on it for reproducible draws.
     * \return a new random variable
     */
    Ptr<FlowSizeRandomVariable> CreateRandomVariable() const;

    /**
     * \brief Round a sampled size to a flow size: the nearest whole byte, at least 1 byte.
     * \param size a sampled size in bytes (>= 0)
     * \return the flow size in bytes, >= 1
     * \throws std::invalid_argument if \p size is NaN or above MAX_SIZE_BYTES (no sample of a
     *         valid CDF is)
     */
    static uint64_t ToBytes(double size);

    /**
     * \brief The points.
     * \return (size_bytes, cumulative_fraction) pairs, the last fraction exactly 1
     */
    const std::vector<std::pair<double, double>>& GetPoints() const;

    /**
     * \brief The name (the file name, or "cdf" for a CDF built from points).
     * \return the name
     */
    std::string GetName() const;

private:
    /**
     * \brief Constructor used by the readers (points already checked).
     * \param points the points
     * \param name the name
     */
    FlowSizeCdf(std::vector<std::pair<double, double>> points, std::string name);

    std::vector<std::pair<double, double>> m_points; //!< (size, fraction) points
    std::string m_name;                              //!< name for messages
};

} // namespace ns3

#endif /* FLOW_SIZE_CDF_H */

/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LSTM_PREDICTOR_H
#define LSTM_PREDICTOR_H

#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-cc-rttpid
 * \brief A one-layer LSTM (input size 1) followed by a linear layer to one output: the RTT
 * predictor of RdmaRttPid (the RTT-PID thesis: "three LSTM cells, hidden size 16, input three
 * consecutive K values", then a linear layer to L_t).
 *
 * The sequence x_1..x_T (T = the file's steps, 3 for the thesis) is run from h = c = 0 with
 * PyTorch's LSTM equations and gate order (i, f, g, o):
 * \verbatim
 *   z   = W_ih x_t + b_ih + W_hh h + b_hh          (4H values)
 *   i = sigmoid(z[0:H])  f = sigmoid(z[H:2H])  g = tanh(z[2H:3H])  o = sigmoid(z[3H:4H])
 *   c   = f * c + i * g
 *   h   = o * tanh(c)
 *   out = W_lin h_T + b_lin
 * \endverbatim
 *
 * Weight file (plain text; '#' starts a comment, blank lines are skipped):
 * \verbatim
 *   dcon-lstm 1 <input> <hidden H> <steps T>      header: format version 1, input must be 1
 *   W_ih <4H> 1        then 4H lines of 1 number
 *   W_hh <4H> <H>      then 4H lines of H numbers
 *   b_ih <4H>          then 1 line of 4H numbers
 *   b_hh <4H>          then 1 line of 4H numbers
 *   W_lin 1 <H>        then 1 line of H numbers
 *   b_lin 1            then 1 line of 1 number
 * \endverbatim
 * Numbers are C doubles ("%.17g" round-trips); NaN and infinities are refused. Any deviation
 * (wrong section name or shape, missing or extra numbers, trailing text) is refused with
 * std::invalid_argument naming the file and line. So are weights whose output could leave
 * [-1000, 1000] (|b_lin| + sum |W_lin|, as |h| < 1): the output is the predicted relative
 * deviation of the RTT from its smoothed value (the shipped weights: at most 4.1).
 */
class LstmPredictor : public SimpleRefCount<LstmPredictor>
{
public:
    /**
     * \brief Parse a weight file.
     * \param path file name
     * \return the predictor; throws std::invalid_argument (file, line, what is wrong)
     */
    static Ptr<const LstmPredictor> Load(const std::string& path);

    /**
     * \brief Parse weights from text (the file format above).
     * \param text the content
     * \param name the name used in error messages
     * \return the predictor; throws std::invalid_argument
     */
    static Ptr<const LstmPredictor> Parse(const std::string& text, const std::string& name);

    /**
     * \brief Load through a process-wide cache keyed by the path string, so that one file is
     * read once however many flows use it.
     * \param path file name
     * \return the predictor; throws std::invalid_argument
     */
    static Ptr<const LstmPredictor> LoadCached(const std::string& path);

    /**
     * \brief Run the sequence from a zero state.
     * \param xs the inputs, exactly GetSteps() of them (oldest first)
     * \return the linear layer's output
     */
    double Predict(const std::vector<double>& xs) const;

    /**
     * \brief Hidden size H.
     * \return H
     */
    uint32_t GetHidden() const;

    /**
     * \brief Sequence length T.
     * \return T
     */
    uint32_t GetSteps() const;

private:
    uint32_t m_hidden{0};
    uint32_t m_steps{0};
    std::vector<double> m_wIh;  //!< 4H
    std::vector<double> m_wHh;  //!< 4H x H, row-major
    std::vector<double> m_bIh;  //!< 4H
    std::vector<double> m_bHh;  //!< 4H
    std::vector<double> m_wLin; //!< H
    double m_bLin{0};
};

} // namespace ns3

#endif /* LSTM_PREDICTOR_H */

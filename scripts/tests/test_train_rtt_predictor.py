"""Tests of scripts/train_rtt_predictor.py (the numpy LSTM of --cc=rttpid).

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_train_rtt_predictor
"""
import contextlib
import io
import os
import tempfile
import unittest

import numpy as np

from .. import train_rtt_predictor as trp

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS = os.path.join(HERE, "..", "..", "data", "rtt-predictor", "lstm-weights.txt")


class ForwardTest(unittest.TestCase):
    def test_shipped_weights_match_cxx(self):
        # The same four sequences and values as LstmPredictor.ShippedWeights (test/rttpid-test.cc).
        p, steps = trp.read_weights(WEIGHTS)
        self.assertEqual(steps, 3)
        self.assertEqual(p["W_hh"].shape, (64, 16))
        cases = [
            ([0, 0, 0], 0.0032885634452244766),
            ([0.1, 0.2, 0.3], 0.4119386277173555),
            ([-0.3, 0.05, 0.5], 0.8834915527690357),
            ([0.0, -0.2, -0.1], -0.09229789379631381),
        ]
        out = trp.forward(p, np.array([c[0] for c in cases], dtype=float))
        for (seq, want), got in zip(cases, out):
            self.assertAlmostEqual(got, want, places=12, msg=str(seq))

    def test_tiny_by_hand(self):
        # LstmPredictor.TinyByHand: H = 1, every weight 0.1, inputs 0.5, -0.5, 1 -> 0.114868097131.
        p = {k: np.full(s, 0.1) for k, s in
             (("W_ih", (4, 1)), ("W_hh", (4, 1)), ("b_ih", (4,)), ("b_hh", (4,)), ("W_lin", (1, 1)), ("b_lin", (1,)))}
        self.assertAlmostEqual(trp.forward(p, np.array([[0.5, -0.5, 1.0]]))[0], 0.114868097131, places=12)

    def test_write_read_round_trip(self):
        p = trp.init_params(3, np.random.default_rng(5))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "w.txt")
            trp.write_weights(p, path, 3, ["a comment"])
            q, steps = trp.read_weights(path)
        self.assertEqual(steps, 3)
        for k in p:
            np.testing.assert_array_equal(p[k], q[k])

    def test_gradient_matches_finite_differences(self):
        rng = np.random.default_rng(0)
        p = trp.init_params(4, rng)
        x, y = rng.normal(0, 0.3, (5, 3)), rng.normal(0, 0.3, 5)
        _, g = trp.l1_grad(p, x, y)
        for k in p:
            idx = np.unravel_index(1 % p[k].size, p[k].shape)
            old = p[k][idx]
            p[k][idx] = old + 1e-6
            lp = np.mean(np.abs(trp.forward(p, x) - y))
            p[k][idx] = old - 1e-6
            lm = np.mean(np.abs(trp.forward(p, x) - y))
            p[k][idx] = old
            self.assertAlmostEqual(g[k][idx], (lp - lm) / 2e-6, places=6, msg=k)


class DataTest(unittest.TestCase):
    def test_features(self):
        # R = 10, 20, 6, 8 us: S = 10, 12, 10.8, 10.24; K = 0, 2/3, -4/9; L_2 = (8 - 10.8) / 10.8.
        x, y = trp.features(np.array([10.0, 20.0, 6.0, 8.0]) * 1e-6)
        np.testing.assert_allclose(x, [[0, 2 / 3, -4 / 9]], atol=1e-12)
        np.testing.assert_allclose(y, [(8 - 10.8) / 10.8], atol=1e-12)

    def test_bad_trace_refused(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.csv")
            with open(path, "w") as f:
                f.write("flow,time_ns,rtt_ns\n0,1,5000\n0,2,-1\n")
            with self.assertRaisesRegex(ValueError, r"t.csv:3: RTT must be > 0"):
                trp.read_traces([path])


class TrainTest(unittest.TestCase):
    def test_tiny_training_lowers_the_loss(self):
        # A synthetic trace whose next value is predictable: the loss on it must fall.
        rng = np.random.default_rng(3)
        rtts = []
        r = 5e-6
        for _ in range(3000):
            r = max(3e-6, 5e-6 + 0.7 * (r - 5e-6) + rng.normal(0, 0.6e-6))
            rtts.append(r)
        with tempfile.TemporaryDirectory() as d:
            trace = os.path.join(d, "t.csv")
            with open(trace, "w") as f:
                f.write("flow,time_ns,rtt_ns\n")
                for i, v in enumerate(rtts):
                    f.write(f"0,{i},{v * 1e9:.3f}\n")
            out = os.path.join(d, "w.txt")
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                trp.main([trace, "--out", out, "--epochs", "4", "--per-epoch", "400", "--seed", "2"])
            log = buf.getvalue()
            losses = [float(line.split("train L1 ")[1].split()[0]) for line in log.splitlines() if line.startswith("epoch")]
            self.assertEqual(len(losses), 4)
            self.assertLess(losses[-1], losses[0])
            p, _ = trp.read_weights(out)
            self.assertTrue(all(np.all(np.isfinite(v)) for v in p.values()))

    def test_bad_options_refused(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            trp.main(["x.csv", "--out", "w.txt", "--epochs", "0"])


if __name__ == "__main__":
    unittest.main()

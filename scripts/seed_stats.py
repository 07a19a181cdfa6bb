"""Statistics over independent replications (seeds) of one point; shared by large_sweep.py and
burst_sweep.py.

For the n values x_1..x_n of a metric (missing values, NaN, left out):
  mean = sum(x) / n, std = the sample standard deviation sqrt(sum((x - mean)^2) / (n - 1)),
  ci95 = t(0.975, n - 1) * std / sqrt(n), the half-width of the two-sided 95% confidence
  interval of the mean with Student's t (the seeds are independent replications; their values
  are assumed roughly normal). t(0.975, df) is tabulated for df = 1..30 (T975) and 1.96 (the
  normal quantile) beyond. n = 1 gives std and ci95 NaN; n = 0 gives everything NaN.
Example: 1, 2, 3 -> mean 2, std 1, ci95 = 4.303 * 1 / sqrt(3) = 2.484.
"""
import math

import pandas as pd

# t(0.975, df) for df = 1..30 (Student's t, two-sided 95%).
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
Z975 = 1.96


def t975(df):
    """The 0.975 quantile of Student's t with df >= 1 degrees of freedom."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    return T975[df - 1] if df <= len(T975) else Z975


def mean_std_ci95(values):
    """(n, mean, std, ci95 half-width) of the non-NaN values (module docstring)."""
    x = pd.to_numeric(pd.Series(list(values), dtype=object), errors="coerce").dropna()
    x = x.astype(float)
    n = len(x)
    if n == 0:
        return 0, math.nan, math.nan, math.nan
    mean = float(x.mean())
    if n == 1:
        return 1, mean, math.nan, math.nan
    std = float(x.std(ddof=1))
    return n, mean, std, t975(n - 1) * std / math.sqrt(n)


def aggregate(table, keys, metrics, extra=None):
    """One row per distinct `keys` combination of `table` (in first-appearance order): the keys,
    n (rows of the group) and, per metric, METRIC_mean, METRIC_std, METRIC_ci95 over its
    non-NaN values (METRIC_n when it has fewer than n), then the columns of extra(group) (a
    dict) when given."""
    rows = []
    if len(table):
        by = keys[0] if len(keys) == 1 else list(keys)
        for key_values, g in table.groupby(by, sort=False, dropna=False):
            row = dict(zip(keys, key_values if isinstance(key_values, tuple)
                           else (key_values,)))
            row["n"] = len(g)
            for m in metrics:
                n, mean, std, ci = mean_std_ci95(g[m])
                row.update({f"{m}_mean": mean, f"{m}_std": std, f"{m}_ci95": ci})
                if n != len(g):
                    row[f"{m}_n"] = n
            if extra is not None:
                row.update(extra(g))
            rows.append(row)
    cols = list(keys) + ["n"] + [f"{m}_{s}" for m in metrics for s in ("mean", "std", "ci95")]
    extra = [c for r in rows for c in r if c not in cols]
    return pd.DataFrame(rows, columns=cols + list(dict.fromkeys(extra)))

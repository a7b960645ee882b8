"""listbench benchmarks (not tests): run each as `python -m bench.<name>` from the repo root.

Among them:

- `bench.extraction` -- parser recall/precision on the golden fixtures, under mail damage,
  and on a synthetic gen_corpus mbox.
- `bench.validate`   -- the Great Expectations gate vs Parquet write time on 1M result rows.
- `bench.queries`    -- docs/queries.md on a lake of >= 1M result rows.

Machines are noisy: every timing is reported beside a baseline measured in the same run.
"""

-- Views over the Delta lake's current snapshot (warehouse.db.view_sql). Each lake table T is read
-- through the table macro snapshot_T(): T's schema columns, in order, of the rows of committed
-- batches only (a batch in flight or left by a crash stays invisible): the files the scalar macro
-- files_T() lists hold one committed batch each and are read whole; the files mixed_T() lists
-- (merged by optimize) are filtered by _listbench_batches, the batches committed in the
-- snapshot. Both lists also name an empty file with T's current schema (columns newer than a
-- file read as NULL).
CREATE OR REPLACE VIEW lake_messages AS
  SELECT * FROM snapshot_messages();
CREATE OR REPLACE VIEW memberships AS
  SELECT * FROM snapshot_memberships();
CREATE OR REPLACE VIEW message_bodies AS
  SELECT * FROM snapshot_message_bodies();
CREATE OR REPLACE VIEW extractions AS
  SELECT * FROM snapshot_extractions();
CREATE OR REPLACE VIEW all_runs AS
  SELECT * FROM snapshot_runs();
CREATE OR REPLACE VIEW all_results AS
  SELECT * FROM snapshot_results();
CREATE OR REPLACE VIEW quarantine AS
  SELECT * FROM snapshot_quarantine();
CREATE OR REPLACE VIEW archives AS
  SELECT * FROM snapshot_archives();

-- the newest extraction of each message is the one users see (re-extraction swaps it atomically);
-- runs and results of other batches drop out in the join, so they need no batch filter of their own
CREATE OR REPLACE VIEW current_extractions AS
  SELECT message_id, arg_max(batch_id, extracted_at) AS batch_id
  FROM extractions GROUP BY message_id;
CREATE OR REPLACE VIEW lake_runs AS
  SELECT r.* FROM snapshot_runs() r
  JOIN current_extractions c USING (message_id, batch_id);
CREATE OR REPLACE VIEW results AS
  SELECT r.* FROM snapshot_results() r
  JOIN current_extractions c USING (message_id, batch_id);

-- one row per message, with every list it was seen on
CREATE OR REPLACE VIEW messages AS
  SELECT m.message_id, m.list_name, l.lists, m.posted_at, m.from_name, m.subject,
         m.in_reply_to, m.thread_id, m.archive_url, m.url, m.unit, m.notes
  FROM lake_messages m
  LEFT JOIN (SELECT message_id, list(DISTINCT list_name ORDER BY list_name) AS lists
             FROM memberships GROUP BY message_id) l USING (message_id);

-- a block identical to one posted earlier (a quoted repost) points at the first one
CREATE OR REPLACE VIEW runs AS
  SELECT r.* EXCLUDE (first_run),
         CASE WHEN first_run <> r.run_id THEN first_run END AS duplicate_of
  FROM (
    SELECT r.*, first_value(r.run_id) OVER (
             PARTITION BY r.content_hash
             ORDER BY m.posted_at NULLS LAST, r.quoted, r.message_id, r.block_index) AS first_run
    FROM lake_runs r LEFT JOIN lake_messages m USING (message_id)
  ) r;

CREATE OR REPLACE VIEW benchmark_results AS
  SELECT res.message_id, m.list_name, m.posted_at, m.subject, res.run_id, res.benchmark,
         ru.tool_version, res.system, res.metric, res.metric_label, res.params, res.value,
         res.unit, res.higher_is_better, res.quoted, res.alignment, res.statistic,
         coalesce(res.layout, 'tool_output') AS layout,
         m.thread_id, ru.attributes['platform:' || res.system] AS platform, ru.attributes AS run_attributes,
         m.url
  FROM results res
  JOIN runs ru USING (run_id)
  JOIN lake_messages m ON m.message_id = res.message_id
  WHERE ru.duplicate_of IS NULL AND res.statistic IS DISTINCT FROM 'interval';

-- pairs of systems measured in the same message on the same metric and params;
-- ratio > 1 means system_a did better
CREATE OR REPLACE VIEW comparisons AS
  SELECT a.message_id, a.list_name, a.posted_at, a.subject, a.benchmark, a.metric, a.params,
         a.statistic, a.unit, a.system AS system_a, b.system AS system_b,
         a.platform AS platform_a, b.platform AS platform_b,
         a.value AS value_a, b.value AS value_b,
         CASE WHEN a.value = 0 OR b.value = 0 OR a.higher_is_better IS NULL THEN NULL
              WHEN a.higher_is_better THEN a.value / b.value
              ELSE b.value / a.value END AS ratio
  FROM benchmark_results a
  JOIN benchmark_results b
    ON a.message_id = b.message_id AND a.benchmark = b.benchmark AND a.metric = b.metric
   AND a.params = b.params AND a.statistic = b.statistic AND a.unit = b.unit
   AND a.system <> b.system;

-- virtualized vs native where one post measures both; ratio > 1 means the guest did better
CREATE OR REPLACE VIEW overhead AS
  SELECT message_id, list_name, posted_at, benchmark, metric, params, statistic, unit,
         platform_a AS hypervisor, system_a AS guest, system_b AS native,
         value_a AS guest_value, value_b AS native_value, ratio
  FROM comparisons
  WHERE platform_b = 'native' AND platform_a IS NOT NULL AND platform_a <> 'native';

-- time series: one point per message, metric and system family
CREATE OR REPLACE VIEW metric_timeline AS
  SELECT date_trunc('month', posted_at) AS month, benchmark, metric, params, unit,
         coalesce(platform, 'other') AS family,
         count(*) AS n, median(value) AS median_value, min(value) AS min_value, max(value) AS max_value
  FROM benchmark_results
  WHERE statistic IN ('value', 'score', 'index')
  GROUP BY ALL;

-- interval series (sysbench, iperf and fio report every few seconds): kept out of
-- benchmark_results, which holds each run's summary, and given here with their span in seconds
CREATE OR REPLACE VIEW benchmark_intervals AS
  SELECT res.message_id, m.list_name, m.posted_at, res.run_id, res.benchmark, ru.tool_version,
         res.system, res.metric, res.metric_label,
         map_from_entries(list_filter(map_entries(res.params),
                                      lambda e: e.key NOT IN ('interval_start', 'interval_end'))) AS params,
         TRY_CAST(res.params['interval_start'] AS DOUBLE) AS interval_start,
         TRY_CAST(res.params['interval_end'] AS DOUBLE) AS interval_end,
         res.value, res.unit, res.higher_is_better, res.quoted, m.url
  FROM results res
  JOIN runs ru USING (run_id)
  JOIN lake_messages m ON m.message_id = res.message_id
  WHERE ru.duplicate_of IS NULL AND res.statistic = 'interval';

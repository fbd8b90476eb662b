-- Claims replies from the line for the model in one round trip (issue 15 item 4): the lock that
-- makes claims take turns across processes, then the claim itself, which in a PL/pgSQL function
-- sees everything committed before the lock was granted (each statement takes a new snapshot).
-- The rules are those of generation/scheduler-queries.ts `claimGenerations`, which calls it.
CREATE OR REPLACE FUNCTION hearth_claim_generations(p_worker text, p_caps jsonb, p_front integer, p_batch integer)
RETURNS SETOF generations
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('hearth:generation-claim'));
  RETURN QUERY
  UPDATE generations
  SET status = 'running', worker_id = p_worker, started_at = now(), heartbeat_at = now()
  WHERE generations.status = 'queued' AND generations.id IN (
    WITH running AS (
      SELECT r.user_id, r.capacity_key, r.worker_id FROM generations r WHERE r.status = 'running'),
    by_user AS (SELECT running.user_id, count(*)::int AS n FROM running GROUP BY running.user_id),
    by_capacity AS (
      SELECT running.capacity_key, count(*)::int AS total,
        (count(*) FILTER (WHERE running.worker_id = p_worker))::int AS mine
      FROM running GROUP BY running.capacity_key),
    head AS (
      SELECT g.id, g.user_id, g.capacity_key, g.max_running, g.turn_at, g.created_at
      FROM generations g
      WHERE g.status = 'queued' AND p_caps ? g.capacity_key
      ORDER BY g.turn_at, g.created_at, g.id LIMIT p_front),
    within_member AS (
      SELECT h.*, coalesce(u.n, 0) + row_number() OVER (
        PARTITION BY h.user_id ORDER BY h.turn_at, h.created_at, h.id) AS nth_of_member
      FROM head h LEFT JOIN by_user u ON u.user_id = h.user_id),
    within_capacity AS (
      SELECT m.*, (CASE WHEN (p_caps -> m.capacity_key ->> 'local')::boolean
          THEN coalesce(k.mine, 0) ELSE coalesce(k.total, 0) END)
        + row_number() OVER (
          PARTITION BY m.capacity_key ORDER BY m.turn_at, m.created_at, m.id) AS nth_of_capacity,
        (p_caps -> m.capacity_key ->> 'limit')::int AS capacity_limit
      FROM within_member m
      LEFT JOIN by_capacity k ON k.capacity_key = m.capacity_key
      WHERE m.nth_of_member <= m.max_running)
    SELECT c.id FROM within_capacity c WHERE c.nth_of_capacity <= c.capacity_limit
    ORDER BY c.turn_at, c.created_at, c.id LIMIT p_batch)
  RETURNING generations.*;
END
$$;

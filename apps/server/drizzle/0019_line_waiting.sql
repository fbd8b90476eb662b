-- Whether any reply waits in line, asked by a reply's end (issue 15 item 4): when none does, the
-- process that ran it makes no claim pass for the slot it frees. Asked under the claims' lock, so
-- it cannot miss a reply whose claim saw that slot still taken: either that claim held the lock
-- first (and the reply, stored before its claim, is seen here: this function's statement takes a
-- new snapshot once the lock is granted), or it waits for the reply's end to commit and takes the
-- freed slot itself. The lock is held until the end's statement commits.
CREATE OR REPLACE FUNCTION hearth_line_waiting()
RETURNS boolean
LANGUAGE plpgsql
VOLATILE
AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('hearth:generation-claim'));
  RETURN EXISTS (SELECT 1 FROM generations WHERE status = 'queued');
END
$$;

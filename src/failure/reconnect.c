/*
 * reconnect.c — --reconnect's rules: which errors mean a lost
 * connection, the backoff between attempts, and the outage counts.
 */
#include <string.h>

#include "pgbench/failure/reconnect.h"

bool
reconnect_sqlstate_lost(const char *sqlstate)
{
	static const char *const lost[] = {"57P01", "57P02", "57P03", "57P05"};

	if (sqlstate == NULL || strlen(sqlstate) != 5)
		return false;
	if (strncmp(sqlstate, "08", 2) == 0)
		return true;
	for (size_t i = 0; i < sizeof(lost) / sizeof(lost[0]); i++)
		if (strcmp(sqlstate, lost[i]) == 0)
			return true;
	return false;
}

pg_time_usec_t
reconnect_backoff(pg_time_usec_t last)
{
	if (last < RECONNECT_BACKOFF_MIN)
		return RECONNECT_BACKOFF_MIN;
	if (last >= RECONNECT_BACKOFF_MAX / 2)
		return RECONNECT_BACKOFF_MAX;
	return last * 2;
}

void
reconnect_note_loss(reconnect_stats *rs, pg_time_usec_t now)
{
	rs->losses++;
	if (rs->first_loss == 0 || now < rs->first_loss)
		rs->first_loss = now;
}

void
reconnect_note_end(reconnect_stats *rs, pg_time_usec_t down_since, pg_time_usec_t now,
				   bool back, pg_time_usec_t *client_downtime)
{
	pg_time_usec_t down = now > down_since ? now - down_since : 0;

	if (back)
		rs->reconnects++;
	else
		rs->down_at_end++;
	if (now > rs->last_back)
		rs->last_back = now;
	rs->downtime_total += down;
	*client_downtime += down;
	if (*client_downtime > rs->downtime_max)
		rs->downtime_max = *client_downtime;
}

void
reconnect_stats_merge(reconnect_stats *acc, const reconnect_stats *rs)
{
	acc->losses += rs->losses;
	acc->reconnects += rs->reconnects;
	if (rs->first_loss != 0 && (acc->first_loss == 0 || rs->first_loss < acc->first_loss))
		acc->first_loss = rs->first_loss;
	if (rs->last_back > acc->last_back)
		acc->last_back = rs->last_back;
	acc->downtime_total += rs->downtime_total;
	if (rs->downtime_max > acc->downtime_max)
		acc->downtime_max = rs->downtime_max;
	acc->down_at_end += rs->down_at_end;
}

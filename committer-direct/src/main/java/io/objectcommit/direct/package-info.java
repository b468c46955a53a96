/**
 * committer-direct: a direct Parquet committer (tasks write straight to the destination) with guards so that
 * speculation and task retries can never leave corrupt or duplicate output.
 */
package io.objectcommit.direct;

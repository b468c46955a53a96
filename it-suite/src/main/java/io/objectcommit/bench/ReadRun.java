package io.objectcommit.bench;

/**
 * One application of the read-cache benchmark: what it measured and what the proxy saw while it ran.
 *
 * @param sizeMb the table's nominal size
 * @param contender the contender
 * @param round the round, from 1
 * @param ms wall time of the read and sums (see {@link ReadApplication})
 * @param applicationMs wall time of the whole application, from the JVM's start to its exit
 * @param fillMs for {@link ReadContender#PERSIST}: the first action's time, which filled Spark's cache; 0 otherwise
 * @param requests the S3 requests of the whole application
 * @param bytesFromS3 bytes the proxy sent the application (response heads and bodies)
 * @param sums the sums it printed
 * @param correct whether the sums are the table's
 */
public record ReadRun(int sizeMb, ReadContender contender, int round, long ms, long applicationMs, long fillMs, Requests requests,
    long bytesFromS3, ReadTable.Sums sums, boolean correct) {
}

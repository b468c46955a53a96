/**
 * What both committers (direct and staging) share, declared once: the destination rule ({@link Destination}), the
 * job id ({@link JobId}), the {@code _SUCCESS} marker ({@link SuccessBuilder}, {@code files.SuccessData}), the
 * statistic names ({@link CommitterStatistics}), the local host name ({@link Hostnames}), the shared keys
 * ({@link CommitConstants}) and the typed failures of task records. Compare-and-swap of a small record and listing
 * a prefix, which the checkpoint file system uses too, are the store's ({@code io.objectcommit.store}).
 *
 * <p>Where the two committers really differ (and why):
 * <ul>
 *   <li><b>When output becomes visible.</b> Direct: each file is uploaded to its final key when its writer closes
 *       (visible at once; job abort deletes it). Staging: task commit starts multipart uploads and job commit
 *       completes them (nothing visible before job commit).</li>
 *   <li><b>Task record.</b> Direct: one record per task changed by every attempt with compare-and-swap (attempts
 *       declare what they write before uploading), under {@code <dest>/_objectcommit_direct/<job>/tasks/}.
 *       Staging: one record per task written once by the winning attempt with an exclusive create, under
 *       {@code <dest>/.objectcommit-staging/<job>/}.</li>
 *   <li><b>Conflicts with existing data.</b> Staging decides them at job commit ({@code conflict-mode}); direct
 *       writes next to existing data (Spark's own overwrite deletes first).</li>
 * </ul>
 */
package io.objectcommit.commit;

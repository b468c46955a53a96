/**
 * committer-staging: tasks write local files and upload them as uncompleted multipart uploads at task commit;
 * job commit completes them, so nothing is visible before job commit.
 */
package io.objectcommit.staging;

/**
 * checkpoint-fs: a consistency-safe checkpoint FileSystem whose correctness never depends on S3 LIST or on
 * copy-based rename, and a Structured Streaming CheckpointFileManager that writes atomically with no temp file.
 */
package io.objectcommit.checkpoint;

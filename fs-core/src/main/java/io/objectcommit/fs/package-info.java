/**
 * fs-core: the only code in objectcommit that talks to the object store. Every other module reaches S3 through
 * it, so that requests are counted and faults injected in one place.
 */
package io.objectcommit.fs;

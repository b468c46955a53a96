/**
 * The object store client: the only code in objectcommit that talks to the object store. Every other module
 * reaches S3 through {@link io.objectcommit.store.ObjectStore}, opened by {@link io.objectcommit.store.ObjectStores},
 * so that requests are counted and faults injected in one place.
 *
 * <p>Packages: this one is the public API (the store, the values it takes and returns, its typed exceptions, its
 * keys in {@link io.objectcommit.store.StoreConstants}, and compare-and-swap and listing over it);
 * {@code config} reads configuration; {@code statistics} counts requests; {@code files} persists versioned JSON
 * records; {@code guarantee} checks what a store guarantees, as a client of the store, and holds the policy that
 * {@link io.objectcommit.store.ObjectStores} wraps around the S3 store; {@code impl} is the S3 request path (which
 * knows nothing of the check), with
 * {@code impl.client} (client settings and the SDK choice), {@code impl.auth} (credentials) and one binding per AWS
 * SDK ({@code impl.v1}, {@code impl.v2}).
 */
package io.objectcommit.store;

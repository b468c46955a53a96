"""An NFS-like test file system: one FUSE mount is one NFS *client* of a shared backing directory (the "server").

Usage: python nfslike.py BACKING MOUNTPOINT [--acregmin S --acregmax S --acdirmin S --acdirmax S | --actimeo S | --noac]
                         [--lookupcache all|positive|none] [--nocto] [--latency-ms MS]

Mount the same BACKING several times (one process per mount) to get several clients. Each client models, in user
space, the caches of the Linux NFS client (fs/nfs), and nothing else caches: the mount runs with FUSE's own kernel
caches off (direct_io, attr_timeout=0, entry_timeout=0, negative_timeout=0), so every stat, lookup, open and
readdir reaches this process.

Modelled (defaults are the Linux client's: acregmin=3 acregmax=60 acdirmin=30 acdirmax=60 lookupcache=all, cto):
  - attribute cache: a name's attributes are served from the cache for its time-to-live, which starts at
    ac*min, doubles each time a revalidation finds them unchanged, up to ac*max, and falls back to ac*min when
    they changed. A file another client deleted or replaced keeps its old attributes here until then.
  - negative lookup cache (lookupcache=all): "no such file" for a name is remembered and trusted as long as the
    parent directory's cached attributes are fresh and the directory was not seen to change; a name another
    client created meanwhile stays invisible for up to acdirmax. lookupcache=positive/none: never cached;
    lookupcache=none also revalidates positive entries at every lookup.
  - directory listing cache: a listing is reused until the directory's attributes are revalidated and found
    changed.
  - close-to-open: opening a file or directory revalidates its attributes with the server (as Linux does for
    LOOKUP_OPEN); a directory found changed drops its listing and its negative entries. --nocto turns this off.
  - this client's own changes in a directory (create, link, rename, unlink, mkdir, rmdir) refresh that
    directory's attributes and listing; they invalidate its negative entries only if the directory had also
    changed on the server (the NFSv4 change_info "before" value differs from the cached one).
  - data: reads and writes go to the server file directly (write-through), which satisfies close-to-open (data
    visible to other clients at the latest on close); no data cache is modelled.
  - link, rename, fsync are passed through (atomic on the backing file system, as on an NFS server).
  - --latency-ms: every operation that would be a round trip to the server (GETATTR, LOOKUP, READDIR, OPEN,
    CREATE, READ, WRITE, COMMIT, LINK, RENAME, REMOVE, CLOSE) sleeps this long; cache hits are free.
  - the round-trip counts (and cache hits) are readable as JSON in the extended attribute user.nfslike.stats
    of the mount's root.

The options are published in the mount's source (the first field of /proc/mounts) as
"nfslike:<nfs options separated by ';'>" and the type is fuse.nfslike, so that a test can hand them to the same
parser that reads a real nfs4 line. Unmount with fusermount3 -u; SIGTERM unmounts as well.
"""
import argparse
import errno
import json
import os
import threading
import time
from collections import Counter

from fuse import FUSE, FuseOSError, Operations

STATS_XATTR = 'user.nfslike.stats'
LINUX_DEFAULTS = dict(acregmin=3.0, acregmax=60.0, acdirmin=30.0, acdirmax=60.0)


def change_attr(st):
    """What the model compares to detect a change (NFS: the change attribute; here times, size, links, inode)."""
    return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_nlink, st.st_mode)


def stat_dict(st):
    return {k: getattr(st, k) for k in ('st_mode', 'st_ino', 'st_nlink', 'st_uid', 'st_gid', 'st_size',
                                        'st_atime', 'st_mtime', 'st_ctime')}


class Entry:
    """A cached name: attributes (None: a negative entry), when fetched, for how long, the parent's generation."""
    __slots__ = ('st', 'change', 'fetched', 'ttl', 'gen')

    def __init__(self, st, change, fetched, ttl, gen):
        self.st, self.change, self.fetched, self.ttl, self.gen = st, change, fetched, ttl, gen


class NfsLikeClient(Operations):
    use_ns = True

    def __init__(self, backing, opts):
        self.root = os.path.realpath(backing)
        self.o = opts
        self.mu = threading.RLock()
        self.names = {}      # path -> Entry
        self.dir_gen = {}    # dir path -> generation, bumped when the directory is seen changed by others
        self.listings = {}   # dir path -> (names, change attribute when read)
        self.rpc = Counter()

    # ------------------------------------------------------------------------------------------- helpers
    def _b(self, path):
        return self.root + path

    def _round_trip(self, op):
        self.rpc[op] += 1
        if self.o.latency_ms > 0:
            time.sleep(self.o.latency_ms / 1000.0)

    @staticmethod
    def _parent(path):
        p = os.path.dirname(path)
        return p if p else '/'

    def _ttl_bounds(self, st):
        if self.o.noac:
            return 0.0, 0.0
        if st is not None and (st.st_mode & 0o170000) == 0o040000:
            return self.o.acdirmin, self.o.acdirmax
        return self.o.acregmin, self.o.acregmax

    def _fresh(self, e, now):
        return now < e.fetched + e.ttl

    def _gen(self, d):
        return self.dir_gen.get(d, 0)

    def _remote_getattr(self, path, op='GETATTR'):
        """Asks the server; updates the cache; raises ENOENT (cached as negative if lookupcache=all)."""
        self._round_trip(op)
        now = time.monotonic()
        try:
            st = os.lstat(self._b(path))
        except FileNotFoundError:
            self.names.pop(path, None)
            self.listings.pop(path, None)
            if self.o.lookupcache == 'all' and path != '/':
                parent = self._parent(path)
                pe = self.names.get(parent)
                if pe is None or pe.st is None:
                    self._remote_getattr(parent)
                self.names[path] = Entry(None, None, now, 0.0, self._gen(parent))
            raise FuseOSError(errno.ENOENT)
        ch = change_attr(st)
        old = self.names.get(path)
        lo, hi = self._ttl_bounds(st)
        if old is not None and old.st is not None and old.change == ch:
            ttl = min(max(old.ttl * 2, lo), hi)
        else:
            ttl = lo
            if old is not None and old.st is not None and (st.st_mode & 0o170000) == 0o040000:
                self._dir_changed(path)
        self.names[path] = Entry(st, ch, now, ttl, self._gen(self._parent(path)))
        return st

    def _dir_changed(self, d):
        """The directory changed on the server: its listing and negative entries are no longer trusted."""
        self.dir_gen[d] = self._gen(d) + 1
        self.listings.pop(d, None)

    def _lookup(self, path):
        """A name's attributes as the client would answer them (the kernel's lookup, stat, access)."""
        now = time.monotonic()
        e = self.names.get(path)
        if e is not None and self.o.lookupcache != 'none':
            if e.st is not None:
                if self._fresh(e, now):
                    return e.st
                return self._remote_getattr(path)
            parent = self._parent(path)
            pe = self.names.get(parent)
            if pe is not None and pe.st is not None and not self._fresh(pe, now):
                self._remote_getattr(parent)  # may bump the parent's generation
                pe = self.names.get(parent)
            if pe is not None and pe.st is not None and e.gen == self._gen(parent):
                self.rpc['negative_hit'] += 1
                raise FuseOSError(errno.ENOENT)
        return self._remote_getattr(path, 'LOOKUP')

    def _revalidate_for_open(self, path):
        if not self.o.nocto:
            self._remote_getattr(path)
        else:
            self._lookup(path)

    def _local_change(self, dirs, op, fn):
        """Runs a modifying operation; then the directories it changed are refreshed as the NFSv4 client does."""
        with self.mu:
            before = {}
            for d in dirs:
                try:
                    before[d] = change_attr(os.lstat(self._b(d)))
                except FileNotFoundError:
                    before[d] = None
        self._round_trip(op)
        try:
            return fn()
        except OSError as e:
            raise FuseOSError(e.errno)
        finally:
            with self.mu:
                for d in dirs:
                    cached = self.names.get(d)
                    if cached is None or cached.st is None or cached.change != before[d]:
                        self._dir_changed(d)  # others changed it too: change_info "before" differs
                    self.listings.pop(d, None)
                    try:
                        st = os.lstat(self._b(d))
                        lo, _ = self._ttl_bounds(st)
                        self.names[d] = Entry(st, change_attr(st), time.monotonic(), lo,
                                              self._gen(self._parent(d)))
                    except FileNotFoundError:
                        self.names.pop(d, None)

    def _forget(self, *paths):
        with self.mu:
            for p in paths:
                self.names.pop(p, None)
                self.listings.pop(p, None)

    # -------------------------------------------------------------------------------------- operations
    def getattr(self, path, fh=None):
        with self.mu:
            return stat_dict(self._lookup(path))

    def access(self, path, amode):
        with self.mu:
            self._lookup(path)
        return 0

    def opendir(self, path):
        with self.mu:
            self._revalidate_for_open(path)
        return 0

    def readdir(self, path, fh):
        with self.mu:
            now = time.monotonic()
            de = self.names.get(path)
            if de is None or de.st is None or not self._fresh(de, now):
                self._remote_getattr(path)
                de = self.names.get(path)
            cached = self.listings.get(path)
            if cached is not None and cached[1] == de.change:
                self.rpc['readdir_hit'] += 1
                return ['.', '..'] + list(cached[0])
            self._round_trip('READDIR')
            try:
                names = sorted(os.listdir(self._b(path)))
            except OSError as e:
                raise FuseOSError(e.errno)
            self.listings[path] = (names, de.change)
            return ['.', '..'] + names

    def open(self, path, fi):
        with self.mu:
            self._revalidate_for_open(path)
        self._round_trip('OPEN')
        try:
            fi.fh = os.open(self._b(path), fi.flags & ~os.O_CREAT)
        except OSError as e:
            raise FuseOSError(e.errno)
        fi.direct_io = 1
        return 0

    def create(self, path, mode, fi):
        fd_box = []

        def op():
            fd_box.append(os.open(self._b(path), fi.flags | os.O_CREAT, mode))
        self._local_change([self._parent(path)], 'CREATE', op)
        self._forget(path)
        fi.fh = fd_box[0]
        fi.direct_io = 1
        return 0

    def read(self, path, size, offset, fi):
        self._round_trip('READ')
        return os.pread(fi.fh, size, offset)

    def write(self, path, data, offset, fi):
        self._round_trip('WRITE')
        n = os.pwrite(fi.fh, data, offset)
        if path:
            self._forget(path)
        return n

    def truncate(self, path, length, fh=None):
        self._round_trip('SETATTR')
        if fh is not None:
            os.ftruncate(fh.fh, length)
        else:
            os.truncate(self._b(path), length)
        self._forget(path)

    def fsync(self, path, datasync, fi):
        self._round_trip('COMMIT')
        os.fsync(fi.fh)
        return 0

    def flush(self, path, fi):
        return 0

    def release(self, path, fi):
        self._round_trip('CLOSE')
        os.close(fi.fh)
        return 0

    def fsyncdir(self, path, datasync, fh):
        return 0

    def releasedir(self, path, fh):
        return 0

    def mkdir(self, path, mode):
        self._local_change([self._parent(path)], 'MKDIR', lambda: os.mkdir(self._b(path), mode))
        self._forget(path)

    def rmdir(self, path):
        self._local_change([self._parent(path)], 'REMOVE', lambda: os.rmdir(self._b(path)))
        self._forget(path)

    def unlink(self, path):
        self._local_change([self._parent(path)], 'REMOVE', lambda: os.unlink(self._b(path)))
        self._forget(path)

    def link(self, target, source):
        self._local_change([self._parent(target)], 'LINK', lambda: os.link(self._b(source), self._b(target)))
        self._forget(target, source)

    def rename(self, old, new):
        dirs = sorted({self._parent(old), self._parent(new)})
        self._local_change(dirs, 'RENAME', lambda: os.rename(self._b(old), self._b(new)))
        self._forget(old, new)

    def symlink(self, target, source):
        self._local_change([self._parent(target)], 'SYMLINK', lambda: os.symlink(source, self._b(target)))
        self._forget(target)

    def readlink(self, path):
        self._round_trip('READLINK')
        return os.readlink(self._b(path))

    def chmod(self, path, mode):
        self._round_trip('SETATTR')
        os.chmod(self._b(path), mode)
        self._forget(path)

    def chown(self, path, uid, gid):
        self._round_trip('SETATTR')
        os.chown(self._b(path), uid, gid)
        self._forget(path)

    def utimens(self, path, times=None):
        self._round_trip('SETATTR')
        if times is None:
            os.utime(self._b(path))
        else:
            os.utime(self._b(path), ns=times)
        self._forget(path)

    def statfs(self, path):
        stv = os.statvfs(self._b(path))
        return {k: getattr(stv, k) for k in ('f_bavail', 'f_bfree', 'f_blocks', 'f_bsize', 'f_favail',
                                             'f_ffree', 'f_files', 'f_flag', 'f_frsize', 'f_namemax')}

    def getxattr(self, path, name, position=0):
        if path == '/' and name == STATS_XATTR:
            with self.mu:
                return json.dumps(dict(self.rpc), sort_keys=True).encode()
        raise FuseOSError(errno.ENODATA)

    def listxattr(self, path):
        return [STATS_XATTR] if path == '/' else []


def published_options(o):
    """The client's settings as NFS mount options (what /proc/mounts would show for a real client)."""
    opts = ['vers=4.1']
    if o.noac:
        opts.append('noac')
    else:
        for k in ('acregmin', 'acregmax', 'acdirmin', 'acdirmax'):
            v = getattr(o, k)
            if v != LINUX_DEFAULTS[k]:
                opts.append('%s=%g' % (k, v))
    if o.nocto:
        opts.append('nocto')
    if o.lookupcache != 'all':
        opts.append('lookupcache=' + ('pos' if o.lookupcache == 'positive' else 'none'))
    opts.append('hard')
    return ';'.join(opts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('backing')
    ap.add_argument('mountpoint')
    for k, v in LINUX_DEFAULTS.items():
        ap.add_argument('--' + k, type=float, default=v)
    ap.add_argument('--actimeo', type=float)
    ap.add_argument('--noac', action='store_true')
    ap.add_argument('--nocto', action='store_true')
    ap.add_argument('--lookupcache', choices=['all', 'positive', 'none'], default='all')
    ap.add_argument('--latency-ms', type=float, default=0.0)
    o = ap.parse_args()
    if o.actimeo is not None:
        o.acregmin = o.acregmax = o.acdirmin = o.acdirmax = o.actimeo
    client = NfsLikeClient(o.backing, o)
    FUSE(client, o.mountpoint, raw_fi=True, foreground=True, nothreads=False, direct_io=True,
         attr_timeout=0, entry_timeout=0, negative_timeout=0, use_ino=True,
         fsname='nfslike:' + published_options(o), subtype='nfslike')


if __name__ == '__main__':
    main()

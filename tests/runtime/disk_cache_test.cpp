// The cache key and the on-disk layout: hits, misses on every key part, corrupt entries found
// (never loaded), concurrent publishers, info/clear, and where the cache lives.
#include "cache/disk_cache.h"
#include "support/error.h"

#include "runtime_test_util.h"

#include <gtest/gtest.h>

#include <functional>

namespace smelt {
namespace {

namespace fs = std::filesystem;
using testing_util::ScopedEnv;
using testing_util::slurp;
using testing_util::spew;
using testing_util::TempDir;

CacheKeyParts base_parts() {
    CacheKeyParts p;
    p.source = "int main() {}";
    p.signature = "(doublep, int)";
    p.primitive = "elementwise";
    p.backend = "cpu";
    p.device = "cpu model";
    p.compiler = "/usr/bin/c++";
    p.compiler_version = "c++ 12.2.0";
    p.flags = "-O3";
    return p;
}

TEST(CacheKey, EveryPartChangesTheKey) {
    const std::string base = CacheKey(base_parts()).hex();
    EXPECT_EQ(base.size(), 32u);
    EXPECT_EQ(CacheKey(base_parts()).hex(), base);
    EXPECT_EQ(CacheKey(base_parts()).parts().engine_version, SMELT_VERSION);
    const std::vector<std::pair<const char *, std::function<void(CacheKeyParts &)>>> changes = {
        {"source", [](CacheKeyParts &p) { p.source += " "; }},
        {"signature", [](CacheKeyParts &p) { p.signature = "(floatp, int)"; }},
        {"primitive", [](CacheKeyParts &p) { p.primitive = "reduction"; }},
        {"backend", [](CacheKeyParts &p) { p.backend = "opencl"; }},
        {"device", [](CacheKeyParts &p) { p.device = "other cpu"; }},
        {"compiler", [](CacheKeyParts &p) { p.compiler = "/usr/bin/clang++"; }},
        {"compiler_version", [](CacheKeyParts &p) { p.compiler_version = "c++ 13.1.0"; }},
        {"flags", [](CacheKeyParts &p) { p.flags = "-O2"; }},
        {"engine_version", [](CacheKeyParts &p) { p.engine_version = "99.0.0"; }},
    };
    for (const auto &[name, change] : changes) {
        CacheKeyParts p = base_parts();
        change(p);
        EXPECT_NE(CacheKey(p).hex(), base) << name;
    }
}

const EntryLayout kLayout{"cpu", ".cpp", ".so"};

// Publishes an entry whose "binary" is `binary` (the cache does not care what the bytes are).
EntryFiles publish_fake(DiskCache &cache, const CacheKey &key, const std::string &binary,
                        const EntryLayout &layout = kLayout) {
    EntryFiles staged = cache.stage(layout, key, key.parts().source);
    spew(staged.binary, binary);
    return cache.publish(layout, key, staged);
}

TEST(DiskCache, PublishedEntryIsAHitWithSourceAndMeta) {
    TempDir dir;
    DiskCache cache(dir.path());
    CacheKey key(base_parts());
    EXPECT_EQ(cache.lookup(kLayout, key).status, DiskCache::Status::Miss);
    EntryFiles e = publish_fake(cache, key, "binary bytes");
    EXPECT_EQ(e.dir, dir.path() / "cpu" / key.hex());
    DiskCache::Lookup found = cache.lookup(kLayout, key);
    ASSERT_EQ(found.status, DiskCache::Status::Hit) << found.reason;
    EXPECT_EQ(slurp(found.files.binary), "binary bytes");
    EXPECT_EQ(slurp(found.files.source), key.parts().source);
    std::string meta = slurp(e.dir / "meta.txt");
    EXPECT_NE(meta.find("signature (doublep, int)"), std::string::npos) << meta;
    EXPECT_NE(meta.find("compiler_version c++ 12.2.0"), std::string::npos) << meta;
    EXPECT_TRUE(fs::exists(dir.path() / "CACHEDIR.TAG"));
    EXPECT_EQ(cache.info().temporary, 0u);
}

TEST(DiskCache, DamagedEntriesAreReportedCorrupt) {
    const std::vector<std::pair<const char *, std::function<void(const EntryFiles &)>>> damage = {
        {"truncated binary", [](const EntryFiles &e) { fs::resize_file(e.binary, 5); }},
        {"flipped byte", [](const EntryFiles &e) { spew(e.binary, "binary bytez"); }},
        {"binary missing", [](const EntryFiles &e) { fs::remove(e.binary); }},
        {"meta garbage", [](const EntryFiles &e) { spew(e.dir / "meta.txt", "\x01\x02garbage"); }},
        {"meta truncated", [](const EntryFiles &e) { fs::resize_file(e.dir / "meta.txt", 30); }},
        {"meta missing", [](const EntryFiles &e) { fs::remove(e.dir / "meta.txt"); }},
    };
    for (const auto &[what, hurt] : damage) {
        TempDir dir;
        DiskCache cache(dir.path());
        CacheKey key(base_parts());
        hurt(publish_fake(cache, key, "binary bytes"));
        DiskCache::Lookup found = cache.lookup(kLayout, key);
        EXPECT_EQ(found.status, DiskCache::Status::Corrupt) << what;
        EXPECT_FALSE(found.reason.empty()) << what;
        // A new build replaces the damaged entry.
        publish_fake(cache, key, "fresh binary");
        found = cache.lookup(kLayout, key);
        EXPECT_EQ(found.status, DiskCache::Status::Hit) << what << ": " << found.reason;
        EXPECT_EQ(slurp(found.files.binary), "fresh binary") << what;
        EXPECT_EQ(cache.info().temporary, 0u) << what;
    }
}

TEST(DiskCache, AFileWhereTheEntryBelongsIsReplacedAndNothingLeaks) {
    TempDir dir;
    DiskCache cache(dir.path());
    CacheKey key(base_parts());
    fs::create_directories(dir.path() / "cpu");
    spew(dir.path() / "cpu" / key.hex(), "not a cache entry");
    EXPECT_EQ(cache.lookup(kLayout, key).status, DiskCache::Status::Miss);
    for (int run = 0; run < 3; ++run) { // every run used to fail and leave a .tmp folder
        EntryFiles e = publish_fake(cache, key, "binary bytes");
        EXPECT_TRUE(fs::is_directory(e.dir));
        EXPECT_EQ(cache.lookup(kLayout, key).status, DiskCache::Status::Hit);
    }
    EXPECT_EQ(cache.info().temporary, 0u);
    EXPECT_EQ(cache.info().entries, 1u);
}

TEST(DiskCache, AFileWhereTheBackendFolderBelongsIsOneClearError) {
    TempDir dir;
    DiskCache cache(dir.path());
    CacheKey key(base_parts());
    spew(dir.path() / "CACHEDIR.TAG", "tag");
    spew(dir.path() / "cpu", "in the way");
    try {
        cache.stage(kLayout, key, "src");
        FAIL() << "staging into a file succeeded";
    } catch (const BackendError &e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("cannot create a build folder in " + (dir.path() / "cpu").string()),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find("SMELT_CACHE_DIR"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
}

TEST(DiskCache, SecondPublisherAdoptsTheFirstEntry) {
    TempDir dir;
    DiskCache cache(dir.path());
    CacheKey key(base_parts());
    // Two builders staged the same key; the first rename wins, the second drops its folder.
    EntryFiles a = cache.stage(kLayout, key, "src");
    EntryFiles b = cache.stage(kLayout, key, "src");
    EXPECT_NE(a.dir, b.dir);
    spew(a.binary, "from a");
    spew(b.binary, "from b");
    EntryFiles ea = cache.publish(kLayout, key, a);
    EntryFiles eb = cache.publish(kLayout, key, b);
    EXPECT_EQ(ea.dir, eb.dir);
    EXPECT_EQ(slurp(eb.binary), "from a");
    EXPECT_FALSE(fs::exists(b.dir));
    EXPECT_EQ(cache.info().temporary, 0u);
    EXPECT_EQ(cache.info().entries, 1u);
}

TEST(DiskCache, InfoAndClearTouchOnlyCacheFiles) {
    TempDir dir;
    DiskCache cache(dir.path());
    CacheKeyParts p = base_parts();
    publish_fake(cache, CacheKey(p), "one");
    p.source = "other";
    publish_fake(cache, CacheKey(p), "two!");
    p.backend = "opencl";
    publish_fake(cache, CacheKey(p), "three", {"opencl", ".cl", ".clbin"});
    spew(dir.path() / "cpu" / "notes.txt", "mine");
    spew(dir.path() / "unrelated.txt", "mine too");
    DiskCache::Info info = cache.info();
    EXPECT_EQ(info.entries, 3u);
    EXPECT_EQ(info.entries_per_backend["cpu"], 2u);
    EXPECT_GT(info.bytes, 12u);
    EXPECT_EQ(cache.clear(), 3u);
    EXPECT_EQ(cache.info().entries, 0u);
    EXPECT_TRUE(fs::exists(dir.path() / "cpu" / "notes.txt"));
    EXPECT_TRUE(fs::exists(dir.path() / "unrelated.txt"));
}

TEST(DiskCache, RootFromEnvironment) {
    {
        ScopedEnv a("SMELT_CACHE_DIR", "/some/where");
        ScopedEnv b("XDG_CACHE_HOME", "/xdg");
        EXPECT_EQ(DiskCache::default_root(), fs::path("/some/where"));
    }
    {
        ScopedEnv a("SMELT_CACHE_DIR", std::nullopt);
        ScopedEnv b("XDG_CACHE_HOME", "/xdg");
        EXPECT_EQ(DiskCache::default_root(), fs::path("/xdg/smelt"));
    }
    {
        ScopedEnv a("SMELT_CACHE_DIR", std::nullopt);
        ScopedEnv b("XDG_CACHE_HOME", std::nullopt);
        ScopedEnv c("HOME", "/home/u");
        EXPECT_EQ(DiskCache::default_root(), fs::path("/home/u/.cache/smelt"));
    }
}

} // namespace
} // namespace smelt

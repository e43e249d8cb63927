// RandomX over Debian's librandomx, as a plain N-API addon (C, no node-addon-api).
//
// One process-wide registry holds a RandomX cache (light mode, 256 MiB) — and with full mode a
// dataset (2 GiB) — per seed hash, reference counted. Each worker thread acquires its own VM for
// a seed (a VM is single-threaded; the cache and dataset are read-only and shared by every VM of
// the process). The last VM released for a seed frees its cache and dataset.
//
// Exports (all synchronous; call them from worker threads, never from the event loop):
//   flags(): number                          randomx_get_flags() of this CPU
//   acquire(seed, full, initThreads): vm     a VM for `seed` (builds the cache/dataset once)
//   hash(vm, input): Buffer                  the 32-byte RandomX hash of `input`
//   release(vm): void                        frees the VM (the finalizer does it otherwise)
//   stats(): { caches, datasets }            how many caches and datasets are alive
#include <node_api.h>
#include <pthread.h>
#include <randomx.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEED 64

typedef struct entry {
  uint8_t seed[MAX_SEED];
  size_t seed_len;
  int full;
  int refs;
  int ready;  // cache (and dataset) initialised
  pthread_mutex_t init_lock;
  randomx_cache *cache;
  randomx_dataset *dataset;
  struct entry *next;
} entry;

typedef struct vm_handle {
  entry *entry;
  randomx_vm *vm;
} vm_handle;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static entry *registry = NULL;

typedef struct dataset_job {
  randomx_dataset *dataset;
  randomx_cache *cache;
  unsigned long start;
  unsigned long count;
} dataset_job;

static void *init_dataset_part(void *arg) {
  dataset_job *job = (dataset_job *)arg;
  randomx_init_dataset(job->dataset, job->cache, job->start, job->count);
  return NULL;
}

// Fills the dataset from the cache on `threads` threads. Returns 0 on success.
static int init_dataset(randomx_dataset *dataset, randomx_cache *cache, int threads) {
  unsigned long items = randomx_dataset_item_count();
  if (threads < 1) threads = 1;
  if (threads > 64) threads = 64;
  pthread_t ids[64];
  int joined[64] = {0};
  dataset_job jobs[64];
  unsigned long per = items / (unsigned long)threads;
  for (int i = 0; i < threads; i++) {
    jobs[i].dataset = dataset;
    jobs[i].cache = cache;
    jobs[i].start = per * (unsigned long)i;
    jobs[i].count = i == threads - 1 ? items - jobs[i].start : per;
    if (i == threads - 1) {
      init_dataset_part(&jobs[i]);
    } else if (pthread_create(&ids[i], NULL, init_dataset_part, &jobs[i]) == 0) {
      joined[i] = 1;
    } else {
      init_dataset_part(&jobs[i]);
    }
  }
  for (int i = 0; i < threads - 1; i++) {
    if (joined[i]) pthread_join(ids[i], NULL);
  }
  return 0;
}

// Finds or adds the registry entry of (seed, full) and takes a reference.
static entry *entry_ref(const uint8_t *seed, size_t seed_len, int full) {
  pthread_mutex_lock(&registry_lock);
  entry *e = registry;
  while (e != NULL) {
    if (e->full == full && e->seed_len == seed_len && memcmp(e->seed, seed, seed_len) == 0) break;
    e = e->next;
  }
  if (e == NULL) {
    e = (entry *)calloc(1, sizeof(entry));
    if (e != NULL) {
      memcpy(e->seed, seed, seed_len);
      e->seed_len = seed_len;
      e->full = full;
      pthread_mutex_init(&e->init_lock, NULL);
      e->next = registry;
      registry = e;
    }
  }
  if (e != NULL) e->refs++;
  pthread_mutex_unlock(&registry_lock);
  return e;
}

static void entry_unref(entry *e) {
  pthread_mutex_lock(&registry_lock);
  e->refs--;
  if (e->refs == 0) {
    entry **link = &registry;
    while (*link != e) link = &(*link)->next;
    *link = e->next;
    if (e->dataset != NULL) randomx_release_dataset(e->dataset);
    if (e->cache != NULL) randomx_release_cache(e->cache);
    pthread_mutex_destroy(&e->init_lock);
    free(e);
  }
  pthread_mutex_unlock(&registry_lock);
}

// Builds the entry's cache (and dataset) once; other threads wait on the entry's lock.
static const char *entry_prepare(entry *e, randomx_flags flags, int init_threads) {
  const char *error = NULL;
  pthread_mutex_lock(&e->init_lock);
  if (!e->ready) {
    e->cache = randomx_alloc_cache(flags);
    if (e->cache == NULL) e->cache = randomx_alloc_cache(flags & ~RANDOMX_FLAG_JIT);
    if (e->cache == NULL) {
      error = "randomx_alloc_cache failed (out of memory?)";
    } else {
      randomx_init_cache(e->cache, e->seed, e->seed_len);
      if (e->full) {
        e->dataset = randomx_alloc_dataset(flags);
        if (e->dataset == NULL) {
          error = "randomx_alloc_dataset failed (the full dataset needs 2 GiB)";
        } else {
          init_dataset(e->dataset, e->cache, init_threads);
        }
      }
      if (error == NULL) e->ready = 1;
    }
    if (error != NULL) {
      if (e->cache != NULL) randomx_release_cache(e->cache);
      e->cache = NULL;
    }
  }
  pthread_mutex_unlock(&e->init_lock);
  return error;
}

static void vm_free(vm_handle *h) {
  if (h->vm != NULL) {
    randomx_destroy_vm(h->vm);
    h->vm = NULL;
  }
  if (h->entry != NULL) {
    entry_unref(h->entry);
    h->entry = NULL;
  }
}

static void vm_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  vm_handle *h = (vm_handle *)data;
  vm_free(h);
  free(h);
}

#define CHECK(call)                                              \
  do {                                                           \
    if ((call) != napi_ok) {                                     \
      napi_throw_error(env, NULL, "randomx: N-API call failed"); \
      return NULL;                                               \
    }                                                            \
  } while (0)

static int get_bytes(napi_env env, napi_value value, const uint8_t **data, size_t *len) {
  bool is_typed = false;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed) return 0;
  napi_typedarray_type type;
  void *raw = NULL;
  napi_value buffer;
  size_t offset = 0;
  if (napi_get_typedarray_info(env, value, &type, len, &raw, &buffer, &offset) != napi_ok) return 0;
  if (type != napi_uint8_array) return 0;
  *data = (const uint8_t *)raw;
  return 1;
}

static vm_handle *get_vm(napi_env env, napi_value value) {
  void *data = NULL;
  if (napi_get_value_external(env, value, &data) != napi_ok) return NULL;
  return (vm_handle *)data;
}

static napi_value js_flags(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  CHECK(napi_create_uint32(env, (uint32_t)randomx_get_flags(), &result));
  return result;
}

static napi_value js_acquire(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  const uint8_t *seed = NULL;
  size_t seed_len = 0;
  if (argc < 3 || !get_bytes(env, argv[0], &seed, &seed_len) || seed_len == 0 || seed_len > MAX_SEED) {
    napi_throw_type_error(env, NULL, "acquire(seed: Uint8Array (1..64 bytes), full: boolean, initThreads: number)");
    return NULL;
  }
  bool full = false;
  int32_t init_threads = 1;
  CHECK(napi_get_value_bool(env, argv[1], &full));
  CHECK(napi_get_value_int32(env, argv[2], &init_threads));

  randomx_flags flags = randomx_get_flags();
  if (full) flags |= RANDOMX_FLAG_FULL_MEM;
  entry *e = entry_ref(seed, seed_len, full ? 1 : 0);
  if (e == NULL) {
    napi_throw_error(env, NULL, "randomx: out of memory");
    return NULL;
  }
  const char *error = entry_prepare(e, flags, init_threads);
  if (error != NULL) {
    entry_unref(e);
    napi_throw_error(env, NULL, error);
    return NULL;
  }
  randomx_vm *vm = randomx_create_vm(flags, e->cache, e->dataset);
  if (vm == NULL) vm = randomx_create_vm(flags & ~RANDOMX_FLAG_JIT, e->cache, e->dataset);
  if (vm == NULL) {
    entry_unref(e);
    napi_throw_error(env, NULL, "randomx_create_vm failed");
    return NULL;
  }
  vm_handle *h = (vm_handle *)calloc(1, sizeof(vm_handle));
  if (h == NULL) {
    randomx_destroy_vm(vm);
    entry_unref(e);
    napi_throw_error(env, NULL, "randomx: out of memory");
    return NULL;
  }
  h->entry = e;
  h->vm = vm;
  napi_value result;
  if (napi_create_external(env, h, vm_finalize, NULL, &result) != napi_ok) {
    vm_free(h);
    free(h);
    napi_throw_error(env, NULL, "randomx: napi_create_external failed");
    return NULL;
  }
  return result;
}

static napi_value js_hash(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  vm_handle *h = argc >= 1 ? get_vm(env, argv[0]) : NULL;
  const uint8_t *input = NULL;
  size_t input_len = 0;
  if (h == NULL || argc < 2 || !get_bytes(env, argv[1], &input, &input_len)) {
    napi_throw_type_error(env, NULL, "hash(vm, input: Uint8Array)");
    return NULL;
  }
  if (h->vm == NULL) {
    napi_throw_error(env, NULL, "randomx: the VM was released");
    return NULL;
  }
  void *out = NULL;
  napi_value result;
  CHECK(napi_create_buffer(env, RANDOMX_HASH_SIZE, &out, &result));
  randomx_calculate_hash(h->vm, input, input_len, out);
  return result;
}

static napi_value js_release(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  vm_handle *h = argc >= 1 ? get_vm(env, argv[0]) : NULL;
  if (h == NULL) {
    napi_throw_type_error(env, NULL, "release(vm)");
    return NULL;
  }
  vm_free(h);
  return NULL;
}

static napi_value js_stats(napi_env env, napi_callback_info info) {
  (void)info;
  uint32_t caches = 0;
  uint32_t datasets = 0;
  pthread_mutex_lock(&registry_lock);
  for (entry *e = registry; e != NULL; e = e->next) {
    if (e->cache != NULL) caches++;
    if (e->dataset != NULL) datasets++;
  }
  pthread_mutex_unlock(&registry_lock);
  napi_value result;
  napi_value value;
  CHECK(napi_create_object(env, &result));
  CHECK(napi_create_uint32(env, caches, &value));
  CHECK(napi_set_named_property(env, result, "caches", value));
  CHECK(napi_create_uint32(env, datasets, &value));
  CHECK(napi_set_named_property(env, result, "datasets", value));
  return result;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
      {"flags", NULL, js_flags, NULL, NULL, NULL, napi_default, NULL},
      {"acquire", NULL, js_acquire, NULL, NULL, NULL, napi_default, NULL},
      {"hash", NULL, js_hash, NULL, NULL, NULL, napi_default, NULL},
      {"release", NULL, js_release, NULL, NULL, NULL, napi_default, NULL},
      {"stats", NULL, js_stats, NULL, NULL, NULL, napi_default, NULL},
  };
  if (napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props) != napi_ok) return NULL;
  return exports;
}

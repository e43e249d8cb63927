{
  "targets": [
    {
      "target_name": "randomx",
      "sources": ["src/addon.c"],
      "libraries": ["-lrandomx", "-lpthread"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-std=c11"],
      "defines": ["NAPI_VERSION=8", "_GNU_SOURCE"]
    }
  ]
}

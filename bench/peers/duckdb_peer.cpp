#include "bench/peers/duckdb_peer.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

#include "storage/error.h"

namespace floe::bench {

namespace {
// duckdb_result is six pointer-sized fields in DuckDB's C API; a larger, aligned buffer
// keeps us safe should it grow.
struct alignas(16) ResultBuffer {
  unsigned char bytes[256] = {};
};
}  // namespace

struct DuckDbPeer::Api {
  int (*open)(const char*, void**);
  int (*connect)(void*, void**);
  int (*query)(void*, const char*, ResultBuffer*);
  void (*destroy_result)(ResultBuffer*);
  const char* (*result_error)(ResultBuffer*);
  uint64_t (*row_count)(ResultBuffer*);
  char* (*value_varchar)(ResultBuffer*, uint64_t, uint64_t);
  void (*free)(void*);
  void (*disconnect)(void**);
  void (*close)(void**);
};

std::unique_ptr<DuckDbPeer> DuckDbPeer::open_if_available(const std::string& database_file) {
  std::string path;
  if (const char* configured = std::getenv("FLOE_DUCKDB_LIB")) {
    path = configured;
  } else if (const char* home = std::getenv("HOME")) {
    path = std::string(home) + "/.cache/floe/duckdb/libduckdb.so";
  }
  void* library = path.empty() ? nullptr : dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) return nullptr;
  std::unique_ptr<DuckDbPeer> peer(new DuckDbPeer());
  peer->library_ = library;
  peer->path_ = path;
  peer->api_ = std::make_unique<Api>();
  auto bind = [&](auto& slot, const char* name) {
    void* symbol = dlsym(library, name);
    if (!symbol) throw Error(std::string("libduckdb.so lacks ") + name);
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(symbol);
  };
  Api& api = *peer->api_;
  bind(api.open, "duckdb_open");
  bind(api.connect, "duckdb_connect");
  bind(api.query, "duckdb_query");
  bind(api.destroy_result, "duckdb_destroy_result");
  bind(api.result_error, "duckdb_result_error");
  bind(api.row_count, "duckdb_row_count");
  bind(api.value_varchar, "duckdb_value_varchar");
  bind(api.free, "duckdb_free");
  bind(api.disconnect, "duckdb_disconnect");
  bind(api.close, "duckdb_close");
  const char* file = database_file.empty() ? nullptr : database_file.c_str();
  if (api.open(file, &peer->database_) != 0) throw Error("duckdb_open failed");
  if (api.connect(peer->database_, &peer->connection_) != 0) throw Error("duckdb_connect failed");
  return peer;
}

DuckDbPeer::~DuckDbPeer() {
  if (api_) {
    if (connection_) api_->disconnect(&connection_);
    if (database_) api_->close(&database_);
  }
  // The library stays loaded: DuckDB keeps background threads and static state.
}

uint64_t DuckDbPeer::execute(const std::string& sql) {
  ResultBuffer result;
  if (api_->query(connection_, sql.c_str(), &result) != 0) {
    std::string message = api_->result_error(&result) ? api_->result_error(&result) : "?";
    api_->destroy_result(&result);
    throw Error("DuckDB: " + message);
  }
  uint64_t rows = api_->row_count(&result);
  api_->destroy_result(&result);
  return rows;
}

std::string DuckDbPeer::scalar(const std::string& sql) {
  ResultBuffer result;
  if (api_->query(connection_, sql.c_str(), &result) != 0) {
    std::string message = api_->result_error(&result) ? api_->result_error(&result) : "?";
    api_->destroy_result(&result);
    throw Error("DuckDB: " + message);
  }
  std::string text;
  if (api_->row_count(&result) > 0) {
    char* value = api_->value_varchar(&result, 0, 0);
    if (value) {
      text = value;
      api_->free(value);
    }
  }
  api_->destroy_result(&result);
  return text;
}

}  // namespace floe::bench

#include "tpch/scale.h"

#include <algorithm>

#include "storage/error.h"

namespace floe::tpch {
namespace {

constexpr int64_t kBaseSuppliers = 10000;
constexpr int64_t kBaseCustomers = 150000;
constexpr int64_t kBaseParts = 200000;
constexpr int64_t kBaseOrders = 1500000;
constexpr int64_t kClerksPerScale = 1000;

}  // namespace

Scale make_scale(double scale_factor) {
  if (!(scale_factor > 0)) throw Error("scale factor must be positive");
  if (scale_factor >= 30000) throw NotSupported("TPC-H scale factors of 30000 and above");
  if (scale_factor < 1) {
    int64_t thousandths = static_cast<int>(1000 * scale_factor);
    auto scaled = [&](int64_t base) { return std::max<int64_t>(1, thousandths * base / 1000); };
    return {scaled(kBaseSuppliers), scaled(kBaseCustomers), scaled(kBaseParts), scaled(kBaseOrders),
            kClerksPerScale};
  }
  auto scale = static_cast<int64_t>(scale_factor);
  return {kBaseSuppliers * scale, kBaseCustomers * scale, kBaseParts * scale, kBaseOrders * scale,
          kClerksPerScale * scale};
}

}  // namespace floe::tpch

// SQL type names (as libpg_query spells them) to floe types.
#pragma once

#include <string_view>

#include "engine/sql/pg_node.h"
#include "storage/interval.h"
#include "storage/types.h"

namespace floe::sql {

// numeric/decimal without (p,s): floe has no unbounded numeric, so it picks this shape.
constexpr uint8_t kDefaultNumericPrecision = 18;
constexpr uint8_t kDefaultNumericScale = 3;

// Throws floe::NotSupported for types floe does not have, floe::Error for bad modifiers.
SqlType resolve_type_name(const PgQuery__TypeName& type_name);

// INTERVAL 'text' with the field typmod of `interval '90' day` (PostgreSQL's INTERVAL_MASK
// bits of datetime.h: MONTH=1<<1, YEAR=1<<2, DAY=1<<3, HOUR=1<<10, MINUTE=1<<11,
// SECOND=1<<12). Without a field it parses the text as interval input.
Interval interval_literal(std::string_view text, const PgQuery__TypeName& type_name);

}  // namespace floe::sql

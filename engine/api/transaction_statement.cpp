// BEGIN / START TRANSACTION, COMMIT / END, ROLLBACK / ABORT, SAVEPOINT, RELEASE SAVEPOINT and
// ROLLBACK TO SAVEPOINT, with PostgreSQL's command tags, warnings and errors. A savepoint is
// a mark in the transaction's undo buffer (engine/txn/transaction.h).
#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

namespace {

// The newest savepoint of that name, or PostgreSQL's error.
size_t find_savepoint(const TransactionBlock& block, const std::string& name) {
  for (size_t i = block.savepoints.size(); i-- > 0;)
    if (block.savepoints[i].first == name) return i;
  throw Error("savepoint \"" + name + "\" does not exist");
}

void require_block(const TransactionBlock& block, const char* command) {
  if (!block.open) throw Error(std::string(command) + " can only be used in transaction blocks");
}

}  // namespace

void apply_transaction_modes(PgQuery__Node* const* modes, size_t count, IsolationLevel& isolation) {
  for (size_t i = 0; i < count; ++i) {
    if (modes[i]->node_case != PG_QUERY__NODE__NODE_DEF_ELEM)
      throw NotSupported("this transaction mode");
    const PgQuery__DefElem& mode = *modes[i]->def_elem;
    const std::string_view name = mode.defname;
    if (name == "transaction_isolation") {
      const std::string_view level = mode.arg->a_const->sval->sval;
      for (size_t l = 0; l < kIsolationLevelNames.size(); ++l)
        if (level == kIsolationLevelNames[l]) isolation = static_cast<IsolationLevel>(l);
    } else if (name == "transaction_read_only") {
      const PgQuery__AConst& value = *mode.arg->a_const;
      if (value.ival && value.ival->ival) throw NotSupported("READ ONLY transactions");
    } else if (name != "transaction_deferrable") {
      throw NotSupported("transaction mode " + std::string(name));
    }
  }
}

bool transaction_control_allowed_when_aborted(const PgQuery__TransactionStmt& stmt) {
  switch (stmt.kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO:
      return true;
    default:
      return false;
  }
}

Result run_transaction_control(const PgQuery__TransactionStmt& stmt, TransactionBlock& block,
                               TransactionManager& manager) {
  if (stmt.chain) throw NotSupported("AND CHAIN");
  switch (stmt.kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START: {
      Result result = Result::command(stmt.kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN
                                          ? "BEGIN"
                                          : "START TRANSACTION");
      if (block.open)
        result.add_notice("there is already a transaction in progress");
      else {
        IsolationLevel isolation = block.default_isolation;
        apply_transaction_modes(stmt.options, stmt.n_options, isolation);
        block.open = manager.begin(isolation);
      }
      return result;
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK: {
      const bool commit = stmt.kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT;
      if (!block.open) {
        Result result = Result::command(commit ? "COMMIT" : "ROLLBACK");
        result.add_notice("there is no transaction in progress");
        return result;
      }
      // COMMIT of an aborted block rolls back (tag ROLLBACK, as PostgreSQL).
      const bool commits = commit && !block.aborted;
      std::unique_ptr<Transaction> transaction = std::move(block.open);
      block.close();
      if (commits)
        manager.commit(std::move(transaction));  // a failed validation: rolled back, throws
      else
        manager.abort(std::move(transaction));
      return Result::command(commits ? "COMMIT" : "ROLLBACK");
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT:
      require_block(block, "SAVEPOINT");
      block.savepoints.emplace_back(stmt.savepoint_name, block.open->mark());
      return Result::command("SAVEPOINT");
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE: {
      require_block(block, "RELEASE SAVEPOINT");
      block.savepoints.resize(find_savepoint(block, stmt.savepoint_name));
      return Result::command("RELEASE");
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO: {
      require_block(block, "ROLLBACK TO SAVEPOINT");
      const size_t savepoint = find_savepoint(block, stmt.savepoint_name);
      block.open->rollback_to(block.savepoints[savepoint].second);
      block.savepoints.resize(savepoint + 1);  // the savepoint itself stays
      block.aborted = false;
      return Result::command("ROLLBACK");
    }
    default:
      throw NotSupported("two-phase commit (PREPARE TRANSACTION)");
  }
}

}  // namespace floe

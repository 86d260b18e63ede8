core.register_action("route", {"http-req"}, function(txn) txn:set_var("txn.x", 1) end)

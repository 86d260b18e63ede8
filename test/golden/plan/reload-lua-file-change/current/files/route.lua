core.register_action("route", {"http-req"}, function(txn) end)

"""`blah-tui report MODEL ...`: the blunt diagnosis report from the platform (``remote``), of a
checkpoint against another (``compare``), of a local archive or dump (``local``); ``output``
is what every form writes."""

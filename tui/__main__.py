from tui.cli import main

raise SystemExit(main())

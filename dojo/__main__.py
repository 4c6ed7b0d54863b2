from dojo.cli import main

raise SystemExit(main())

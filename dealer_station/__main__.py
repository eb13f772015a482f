from dealer_station.cli import main

raise SystemExit(main())

-- A version 1 library database as an older store wrote it: the pets table
-- alone. Two rows come from packages with the removed state names start
-- and review (contract section 10); the test adds a current pet beside
-- them, with its files, before it opens the store.
CREATE TABLE pets (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	style TEXT NOT NULL,
	quality TEXT NOT NULL,
	origin TEXT NOT NULL CHECK (origin IN ('bundled', 'user')),
	generator TEXT NOT NULL,
	provenance TEXT NOT NULL,
	active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
	revision INTEGER NOT NULL CHECK (revision >= 1),
	digest TEXT NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	state_names TEXT NOT NULL
);
CREATE UNIQUE INDEX pets_one_active ON pets (active) WHERE active = 1;
INSERT INTO pets VALUES ('pet_legacyone', 'Old One', 'pixel', 'standard', 'user', 'agent-pet-maker', 'skill-preview', 1, 1,
	'0000000000000000000000000000000000000000000000000000000000000001', '2024-05-01T10:00:00Z', '2024-05-02T10:00:00Z',
	'start,idle,thinking,tool,waiting,done,failed,review');
INSERT INTO pets VALUES ('pet_legacytwo', 'Old Two', 'pixel', 'low', 'user', 'agent-pet-maker', 'external', 0, 3,
	'0000000000000000000000000000000000000000000000000000000000000002', '2024-06-01T10:00:00Z', '2024-06-03T10:00:00Z',
	'idle,thinking,tool,waiting,done,failed,review');
PRAGMA user_version = 1;

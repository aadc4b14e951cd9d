-- An operator answering a conversation with a fictional profile holds it for a while (renewed
-- while typing); others see who has it and cannot send in it.
CREATE TABLE operator_claims (
    conversation_id INTEGER PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
    operator_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL
);
-- What a fictional profile told a member, shared by every operator.
CREATE TABLE operator_notes (
    member_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    profile_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    updated_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (member_id, profile_id)
);

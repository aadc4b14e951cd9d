-- An operator answering a conversation with a fictional profile holds it for a while (renewed
-- while typing); others see who has it and cannot send in it.
CREATE TABLE operator_claims (
    conversation_id BIGINT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
    operator_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL
);
-- What a fictional profile told a member, shared by every operator.
CREATE TABLE operator_notes (
    member_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    profile_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    updated_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (member_id, profile_id)
);

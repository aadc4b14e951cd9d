-- Chat (SPEC §1, §3 Chat state, §4, §6): conversations between two members, one row of state per
-- member and conversation, and the messages. A message is paid in the same transaction that
-- stores it (credit_ledger reference `message:{id}`); `client_id` is made by the sender's client
-- so that a retried send is stored and charged once.
ALTER TABLE sites ADD COLUMN free_messages BIGINT NOT NULL DEFAULT 3;
ALTER TABLE users ADD COLUMN free_messages_used BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN conversations_started BIGINT NOT NULL DEFAULT 0;
-- Operators answer as the fictional profiles in the operator console (`vonk staff grant <email> operator`).
ALTER TABLE users ADD COLUMN operator BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE conversations (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    site_id BIGINT NOT NULL REFERENCES sites (id),
    -- The two members, lower id first: one conversation per pair.
    low_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    high_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    started_by BIGINT NOT NULL,
    -- One side is an operator-run (fictional) profile: the operator console sees it.
    fictional BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL,
    last_message_id BIGINT NOT NULL DEFAULT 0,
    CHECK (low_id < high_id),
    UNIQUE (low_id, high_id)
);
CREATE INDEX conversations_fictional ON conversations (fictional, last_message_id);

-- Each member's side: what they read and received, what they deleted from their list, their
-- unread count, and whether a new-message mail went out since they last read.
CREATE TABLE chat_members (
    conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    peer_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The newest message this member can see (held messages to them do not count), for the list.
    last_message_id BIGINT NOT NULL DEFAULT 0,
    last_at BIGINT NOT NULL DEFAULT 0,
    read_up_to BIGINT NOT NULL DEFAULT 0,
    delivered_up_to BIGINT NOT NULL DEFAULT 0,
    -- Deleted from this member's list up to this message; a newer message brings it back.
    cleared_up_to BIGINT NOT NULL DEFAULT 0,
    unread BIGINT NOT NULL DEFAULT 0 CHECK (unread >= 0),
    mailed BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (conversation_id, user_id)
);
CREATE INDEX chat_members_list ON chat_members (user_id, last_message_id);

CREATE TABLE messages (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    sender_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipient_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('text', 'photo', 'gift')),
    body TEXT NOT NULL DEFAULT '',
    gift TEXT,
    -- The re-encoded photo in the private media store.
    photo_key TEXT,
    client_id TEXT NOT NULL,
    -- Credits paid; `free` when it was one of the site's free messages.
    cost BIGINT NOT NULL DEFAULT 0,
    free BOOLEAN NOT NULL DEFAULT FALSE,
    -- Waiting until both members confirmed their email address.
    held BOOLEAN NOT NULL DEFAULT FALSE,
    -- The operator who wrote it as a fictional profile.
    operator_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (sender_id, client_id)
);
CREATE INDEX messages_conversation ON messages (conversation_id, id);
CREATE INDEX messages_held ON messages (held, recipient_id) WHERE held;

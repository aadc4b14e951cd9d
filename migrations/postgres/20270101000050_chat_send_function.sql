-- A member's chat send in one round trip (server/src/chat/send.rs, `SEND_POSTGRES`): the
-- sender's row lock, the read (a retry of this client id, the recipient and blocks both ways,
-- the pair's conversation, the sender's messages in it waiting for staff) and the write (the
-- message, its ledger row, the balance or free count, the conversation's last message, both
-- members' lists, the chat signal) in one function called outside a transaction: it commits
-- when it returns.
--
-- It decides nothing the server has not handed it: the price and up to which free count a
-- message is free (`domain::chat::charge`), the balance at or below which a premium member's
-- send must note a low balance, the statuses that may receive, the ledger's reason and the
-- signal's text around what only the database knows. Whenever the send is not the plain case
-- (a retry, no such recipient or conversation, a block, a new conversation, messages waiting
-- for review, too few credits, a balance falling low) it writes nothing and answers no row:
-- the server then stores the send in its transaction, statement by statement, which gives
-- every refusal its own answer.
CREATE FUNCTION vonk_chat_send(
    p_sender BIGINT, p_site BIGINT, p_to_member BIGINT, p_to_conversation BIGINT, p_client_id TEXT,
    p_kind TEXT, p_body TEXT, p_gift TEXT, p_photo_key TEXT, p_created_at BIGINT,
    p_photo_review TEXT, p_photo_reason TEXT, p_photo_score BIGINT,
    p_price BIGINT, p_free_below BIGINT, p_low_at BIGINT, p_sender_confirmed BOOLEAN,
    p_active TEXT, p_not_confirmed TEXT, p_spend TEXT, p_spend_prefix TEXT,
    p_channel TEXT, p_queue_signal TEXT, p_message_signal TEXT, p_row_tail TEXT)
RETURNS TABLE (message_id BIGINT, conversation_id BIGINT, recipient_id BIGINT, held BOOLEAN, fictional BOOLEAN,
    balance BIGINT, free_used BIGINT, mailed BOOLEAN)
LANGUAGE plpgsql AS $$
DECLARE
    v_free_used BIGINT;
    v_credits BIGINT;
    v_peer BIGINT;
    v_status TEXT;
    v_fictional BOOLEAN;
    v_conversation BIGINT;
    v_free BOOLEAN;
    v_cost BIGINT;
    v_balance BIGINT;
    v_held BOOLEAN;
    v_id BIGINT;
    v_mailed BOOLEAN;
    v_unread BIGINT;
BEGIN
    -- The member-cache triggers stay silent: the chat signal names both members (migration 49).
    PERFORM set_config('vonk.chat_announces', 'on', true);
    -- The sender's row lock: one member's sends (and bookings) happen one after the other. A
    -- row lock, not a write: the send writes the row once, below, if it pays or is free.
    SELECT u.free_messages_used, u.credits INTO v_free_used, v_credits FROM users u WHERE u.id = p_sender FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM messages r WHERE r.sender_id = p_sender AND r.client_id = p_client_id) THEN
        RETURN;
    END IF;
    v_peer := COALESCE(p_to_member,
        (SELECT cm.peer_id FROM chat_members cm WHERE cm.conversation_id = p_to_conversation AND cm.user_id = p_sender));
    SELECT u.status, u.fictional INTO v_status, v_fictional FROM users u
        WHERE u.id = v_peer AND u.site_id = p_site AND EXISTS (SELECT 1 FROM profiles p WHERE p.user_id = u.id);
    IF NOT FOUND OR v_peer = p_sender OR v_status NOT IN (p_active, p_not_confirmed) THEN
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = p_sender AND b.blocked_id = v_peer)
            OR (b.blocker_id = v_peer AND b.blocked_id = p_sender)) THEN
        RETURN;
    END IF;
    SELECT c.id INTO v_conversation FROM conversations c
        WHERE c.low_id = LEAST(p_sender, v_peer) AND c.high_id = GREATEST(p_sender, v_peer);
    IF NOT FOUND OR (p_to_conversation IS NOT NULL AND v_conversation <> p_to_conversation) THEN
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM messages w WHERE w.conversation_id = v_conversation AND w.sender_id = p_sender AND w.review) THEN
        RETURN;
    END IF;
    v_free := v_free_used < p_free_below;
    v_cost := CASE WHEN v_free THEN 0 ELSE p_price END;
    v_balance := v_credits - v_cost;
    IF v_balance < 0 OR (p_low_at IS NOT NULL AND v_credits > p_low_at AND v_balance <= p_low_at) THEN
        RETURN;
    END IF;
    v_held := NOT (p_sender_confirmed AND v_status = p_active);
    INSERT INTO messages (conversation_id, sender_id, recipient_id, kind, body, gift, photo_key, client_id, cost, free, held,
            operator_id, created_at, review, photo_review, photo_reason, photo_score)
        VALUES (v_conversation, p_sender, v_peer, p_kind, p_body, p_gift, p_photo_key, p_client_id, v_cost, v_free, v_held,
            NULL, p_created_at, FALSE, p_photo_review, p_photo_reason, p_photo_score)
        RETURNING id INTO v_id;
    IF v_cost > 0 THEN
        INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference, created_at)
            VALUES (p_sender, -v_cost, v_balance, p_spend, p_spend_prefix || v_id, p_created_at);
    END IF;
    IF v_cost > 0 OR v_free THEN
        UPDATE users u SET credits = v_balance, free_messages_used = u.free_messages_used + CASE WHEN v_free THEN 1 ELSE 0 END
            WHERE u.id = p_sender;
    END IF;
    UPDATE conversations c SET last_message_id = v_id WHERE c.id = v_conversation;
    -- Whether the recipient's new-message mail for this conversation is claimed already (and
    -- not freed by a read since): then the server does not try to claim it again.
    WITH lists AS (
        UPDATE chat_members cm SET last_message_id = v_id, last_at = p_created_at,
                read_up_to = CASE WHEN cm.user_id = p_sender THEN v_id ELSE cm.read_up_to END,
                unread = CASE WHEN cm.user_id = p_sender THEN cm.unread ELSE cm.unread + 1 END
            WHERE cm.conversation_id = v_conversation AND (cm.user_id = p_sender OR (cm.user_id = v_peer AND NOT v_held))
            RETURNING cm.user_id, cm.mailed)
    SELECT COALESCE(bool_or(l.mailed) FILTER (WHERE l.user_id = v_peer), FALSE) INTO v_mailed FROM lists l;
    -- The recipient's unread total after it (the member caches take it from the signal).
    IF NOT v_held THEN
        SELECT CAST(COALESCE(SUM(cm.unread), 0) AS BIGINT) INTO v_unread FROM chat_members cm WHERE cm.user_id = v_peer;
    END IF;
    -- The signal: the operators' queue when the recipient is a fictional profile, then the
    -- message with its row (its tail, the columns the server knew, written by the server), the
    -- sender's balance and the recipient's unread total after it (empty when held: unchanged).
    PERFORM pg_notify(p_channel, CASE WHEN v_fictional THEN p_queue_signal || ';' ELSE '' END
        || p_message_signal || ',' || v_id || ',' || v_conversation || ',' || p_sender || ',' || v_peer
        || ',' || CASE WHEN v_held THEN '1' ELSE '0' END || ',' || v_balance || ',' || COALESCE(v_unread::text, '')
        || ',' || p_row_tail);
    RETURN QUERY SELECT v_id, v_conversation, v_peer, v_held, v_fictional, v_balance, v_free_used + CASE WHEN v_free THEN 1 ELSE 0 END, v_mailed;
END
$$;

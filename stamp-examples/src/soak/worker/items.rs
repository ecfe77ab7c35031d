//! The worker's writes of whole items: creates, batch puts, rekeys, deletes.

use super::*;

impl Worker {
    pub(super) async fn create(&mut self) -> Result<Ended, String> {
        let session = self.session();
        let result = self.table().create(&session).await;
        self.note(&session.token, "create", &result);
        match result {
            Ok(()) => {
                self.store_session(session);
                Ok(Ended::Acknowledged)
            }
            Err(error @ Error::AlreadyExists { .. }) => Err(format!(
                "a create of the new key {} said: {error}",
                session.token
            )),
            Err(error) if error.may_have_been_applied() => {
                Ok(match self.settle_session(&session.token).await? {
                    true => Ended::UncertainApplied,
                    false => Ended::UncertainNotApplied,
                })
            }
            Err(_) => Ok(Ended::Refused),
        }
    }

    pub(super) async fn create_taken(&mut self) -> Result<Ended, String> {
        let Some(stored) = self.own_session() else {
            return self.create().await;
        };
        let other = Session {
            customer_id: format!("{}-again", stored.customer_id),
            ..stored.clone()
        };
        let result = self.table().create(&other).await;
        self.note(&stored.token, "create of the taken key", &result);
        match result {
            Ok(()) => Err(format!(
                "a create of the taken key {} succeeded",
                stored.token
            )),
            // The expected refusal: the stored session is unchanged, which
            // the final comparison checks.
            Err(Error::AlreadyExists { .. }) => Ok(Ended::Acknowledged),
            Err(error) if error.may_have_been_applied() => {
                self.settle_session(&stored.token).await?;
                Ok(Ended::UncertainNotApplied)
            }
            Err(_) => Ok(Ended::Refused),
        }
    }

    pub(super) async fn batch_put(&mut self) -> Result<Ended, String> {
        let count = self.random.random_range(2..=8);
        let sessions: Vec<Session> = (0..count).map(|_| self.session()).collect();
        let result = BatchWrite::new()
            .put_all(&sessions)
            .send(self.table())
            .await;
        let noted = result.as_ref().map(|_| ()).map_err(Clone::clone);
        for session in &sessions {
            self.note(&session.token, "batch put", &noted);
        }
        match result {
            Ok(_) => {
                for session in sessions {
                    self.store_session(session);
                }
                Ok(Ended::Acknowledged)
            }
            Err(error) => {
                // Those not among `unprocessed` were written; the others
                // are read.
                let unsure: BTreeSet<String> = match &error {
                    Error::UnprocessedItems { unprocessed, .. } => unprocessed
                        .iter()
                        .filter_map(|request| request.put_request.as_ref())
                        .filter_map(|put| put.item.get("token")?.as_s().ok().cloned())
                        .collect(),
                    _ => sessions
                        .iter()
                        .map(|session| session.token.clone())
                        .collect(),
                };
                let mut applied = 0;
                for session in sessions {
                    let written = !unsure.contains(&session.token);
                    let token = session.token.clone();
                    if self.settle_session(&token).await? {
                        applied += 1;
                    } else if written {
                        return Err(format!(
                            "{token} was written by the batch ({error}), but is not stored"
                        ));
                    }
                }
                Ok(if applied > 0 {
                    Ended::UncertainApplied
                } else {
                    Ended::UncertainNotApplied
                })
            }
        }
    }

    pub(super) async fn rekey(&mut self) -> Result<Ended, String> {
        let Some(old) = self.own_session() else {
            return self.create().await;
        };
        let new = Session {
            token: self.next_id("s"),
            ..old.clone()
        };
        let result = self.table().rekey(&old, &new).await;
        self.note(&old.token, &format!("re-key to {}", new.token), &result);
        self.note(&new.token, &format!("re-key from {}", old.token), &result);
        match result {
            Ok(()) => {
                let mut model = self.shared.model.lock().unwrap();
                model.sessions.remove(&old.token);
                model.sessions.insert(new.token.clone(), new);
                Ok(Ended::Acknowledged)
            }
            Err(error) => {
                let uncertain = error.may_have_been_applied();
                let at_old = self.settle_session(&old.token).await?;
                let at_new = self.settle_session(&new.token).await?;
                match (at_old, at_new, uncertain) {
                    (true, false, true) => Ok(Ended::UncertainNotApplied),
                    (true, false, false) => Ok(Ended::Refused),
                    (false, true, true) => Ok(Ended::UncertainApplied),
                    (false, true, false) => Err(format!(
                        "the re-key of {} to {} failed with an error that says nothing was changed ({error}), but it was applied",
                        old.token, new.token
                    )),
                    (at_old, at_new, _) => Err(format!(
                        "the re-key of {} to {} was not atomic: old key stored {at_old}, new key stored {at_new} ({error})",
                        old.token, new.token
                    )),
                }
            }
        }
    }

    pub(super) async fn delete(&mut self, guarded: bool) -> Result<Ended, String> {
        let Some(session) = self.own_session() else {
            return self.create().await;
        };
        let key = Session::key(&session.token).map_err(|error| error.to_string())?;
        let result = if guarded {
            Delete::new(key)
                .condition(Session::CUSTOMER_ID.eq(&session.customer_id))
                .send(self.table())
                .await
        } else {
            self.table().delete(&key).await
        };
        self.note(
            &session.token,
            if guarded { "guarded delete" } else { "delete" },
            &result,
        );
        match result {
            Ok(()) => {
                self.shared
                    .model
                    .lock()
                    .unwrap()
                    .sessions
                    .remove(&session.token);
                Ok(Ended::Acknowledged)
            }
            Err(error) if error.may_have_been_applied() => {
                Ok(match self.settle_session(&session.token).await? {
                    true => Ended::UncertainNotApplied,
                    false => Ended::UncertainApplied,
                })
            }
            Err(error @ Error::ConditionFailed { .. }) => Err(format!(
                "the guarded delete of {} failed its condition, which holds: {error}",
                session.token
            )),
            Err(_) => Ok(Ended::Refused),
        }
    }
}

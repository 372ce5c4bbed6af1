//! `/permissions`: the effective rules in the order they apply and where each came from,
//! whether the danger floor and `--yolo` are on, and removing a session rule
//! (`/permissions remove <n>`).

use crate::core::agent_session::AgentSession;
use crate::core::permission_gate::PermissionGate;
use crate::permissions::Scope;
use crate::t;

/// Run `/permissions args`; the text to show.
pub fn run(agent: &mut AgentSession, args: &str) -> String {
    let words: Vec<&str> = args.split_whitespace().collect();
    match words.as_slice() {
        [] | ["list"] => list(&agent.permissions),
        ["remove", n] => {
            let index = n.parse::<usize>().ok().filter(|i| *i >= 1);
            let label = index
                .and_then(|i| agent.permissions.policy.session.get(i - 1))
                .map(|r| r.label());
            match (index, label) {
                (Some(i), Some(label)) => {
                    agent
                        .permissions
                        .remove_session_rule(i - 1, &mut agent.session);
                    t!("pi.permissions.removed", rule = label)
                }
                _ => t!("pi.permissions.no_such_rule", n = n.to_string()),
            }
        }
        _ => t!("pi.permissions.usage"),
    }
}

/// Every rule with where it came from, then the switches.
pub fn list(gate: &PermissionGate) -> String {
    let policy = &gate.policy;
    let mut lines = Vec::new();
    let rules = policy.all_rules();
    if rules.is_empty() {
        lines.push(t!("pi.permissions.none"));
    } else {
        lines.push(t!("pi.permissions.list_title"));
    }
    let mut session_number = 0;
    for rule in rules {
        let from = match rule.scope {
            Scope::User => t!("pi.permissions.from_user"),
            Scope::Project if policy.project_trusted => t!("pi.permissions.from_project"),
            Scope::Project => t!("pi.permissions.from_untrusted_project"),
            Scope::Session => {
                session_number += 1;
                t!("pi.permissions.from_session", n = session_number)
            }
        };
        lines.push(format!(
            "  {} \"{}\" → {}   {}",
            rule.tool,
            rule.pattern,
            rule.action.as_str(),
            from
        ));
    }
    lines.push(if policy.active() {
        t!("pi.permissions.floor_on")
    } else {
        t!("pi.permissions.policy_off")
    });
    if policy.yolo {
        lines.push(t!("pi.permissions.yolo_on"));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permissions::{Action, Policy, Rule};

    #[test]
    fn rules_are_listed_in_order_with_their_origin() {
        let rule = |p: &str, a, s| Rule::new("bash", p, a, s).unwrap();
        let gate = PermissionGate {
            policy: Policy {
                user: vec![rule("git push*", Action::Deny, Scope::User)],
                project: vec![rule("make*", Action::Ask, Scope::Project)],
                session: vec![rule("ls", Action::Allow, Scope::Session)],
                ..Policy::default()
            },
            ui: None,
        };
        let text = list(&gate);
        let user = text.find("\"git push*\" → deny").unwrap();
        let project = text.find("\"make*\" → ask").unwrap();
        let session = text.find("\"ls\" → allow").unwrap();
        assert!(user < project && project < session, "{text}");
        assert!(text.contains("(/permissions remove 1)"), "{text}");
        assert!(text.contains("untrusted"), "{text}");
        let empty = list(&PermissionGate::default());
        assert!(!empty.contains('→'), "{empty}");
    }
}
